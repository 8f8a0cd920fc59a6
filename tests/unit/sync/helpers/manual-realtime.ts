// A realtime transport the test drives: connected as soon as the engine subscribes, message rows
// emitted by hand. The engine subscribes only once the first pull told it the account, after a
// resubscribe delay that settled() does not wait for, so a test waits for `connected()` before it
// emits (an event emitted before that has no listener and is lost, which made tests flaky under load).
import { statusCell, type Transport } from '../../../../sync/transports/transport.ts';

export interface ManualRealtime {
  transport: Transport;
  connected: () => boolean;
  /** A message row's INSERT, as postgres_changes hands it over. */
  emit: (record: unknown) => void;
}

export function manualRealtime(): ManualRealtime {
  const cell = statusCell();
  const transport: Transport = {
    name: 'manual',
    status: cell.get,
    subscribe(h) {
      cell.attach(h);
      queueMicrotask(() => cell.set('connected'));
    },
    close: async () => cell.close(),
  };
  return { transport, connected: () => cell.get() === 'connected', emit: (record) => cell.emit({ kind: 'row', table: 'messages', op: 'INSERT', record, oldRecord: {} }) };
}

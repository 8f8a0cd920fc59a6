// A realtime link that cannot be made (the account is not known yet): it reports `error` with the
// reason once subscribed: the machine takes it as a link down (polls, and tries again later, R6.3).
import { statusCell, type Transport } from './transport.ts';

export function downTransport(reason: string): Transport {
  const cell = statusCell();
  return {
    name: 'unavailable',
    status: cell.get,
    subscribe(h) {
      cell.attach(h);
      queueMicrotask(() => cell.set('error', reason));
    },
    close: async () => cell.close(),
  };
}

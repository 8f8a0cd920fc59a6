import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import type { StoredMessages } from '../../../sync/model/local-types.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { statusCell, type Transport } from '../../../sync/transports/transport.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});

/**
 * A realtime transport the test drives: connected as soon as the engine subscribes, rows emitted by
 * hand. The engine subscribes only once the first pull told it the account, after a resubscribe
 * delay that settled() does not wait for, so the test waits for `connected` before it emits (an
 * event emitted before that has no listener and is lost, which made this test flaky under load).
 */
function manualRealtime() {
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
  return { transport, connected: () => cell.get() === 'connected', emit: (record: unknown) => cell.emit({ kind: 'row', table: 'messages', op: 'INSERT', record, oldRecord: {} }) };
}

describe('R6.5 published messages', () => {
  it('R6.5 a realtime message is published once its write has committed, with a growing generation', async () => {
    const server = new FakeServer();
    const conv = server.addConversation();
    const rt = manualRealtime();
    const e = createSyncEngine({
      userId: 'user-1',
      server: server.api(),
      idb: { indexedDB: new IDBFactory(), IDBKeyRange },
      network: manualNetwork(true),
      timings: FAST_TIMINGS,
      transports: { realtime: () => rt.transport },
      locks: null,
      channels: null,
    });
    engines.push(e);
    const seen: { stored: StoredMessages; generation: number; inDb: boolean }[] = [];
    e.subscribeStored((stored, generation) => {
      // Committed: a read issued now already sees the row.
      void e.db.messages.get(stored.put[0]!.key).then((m) => seen.push({ stored, generation, inDb: m !== undefined }));
    });
    await e.start();
    await waitFor(() => e.status().loaded, 'first pull');
    await waitFor(() => rt.connected(), 'realtime subscribed', 10_000);
    await e.settled();
    expect(e.storedGeneration()).toBe(0); // the pull publishes nothing
    rt.emit(server.addMessage(conv.id, { text: 'Z druhého zariadenia' }));
    await waitFor(() => seen.length === 1, 'first publication');
    rt.emit(server.addMessage(conv.id, { text: 'Ešte jedna' }));
    await waitFor(() => seen.length === 2, 'second publication');
    expect(seen.map((s) => [s.stored.put.map((m) => m.text), s.generation, s.inDb])).toEqual([
      [['Z druhého zariadenia'], 1, true],
      [['Ešte jedna'], 2, true],
    ]);
    expect(e.storedGeneration()).toBe(2);
  });
});

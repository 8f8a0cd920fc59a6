import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import type { StoredMessages } from '../../../sync/model/local-types.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { manualRealtime } from './helpers/manual-realtime.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});


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

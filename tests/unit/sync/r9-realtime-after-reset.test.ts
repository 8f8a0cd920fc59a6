// R9.18: a realtime row that reaches the device after its feed reset, on a channel joined before it,
// may be one the restore took away: it is not merged, it asks for a pull (receive/rows-across-resets.ts).
// The hostile fuzz's seed 7 under CI load ended "lost by a restore, still shown sent" this way.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import type { Transport } from '../../../sync/transports/transport.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { manualRealtime, type ManualRealtime } from './helpers/manual-realtime.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});

/** Realtime transports the test drives; every subscription the engine makes is recorded. */
function manualRealtimes() {
  const made: ManualRealtime[] = [];
  const create = (): Transport => {
    const rt = manualRealtime();
    made.push(rt);
    return rt.transport;
  };
  return { create, made };
}

async function engineWithRealtime() {
  const server = new FakeServer();
  server.epoch = 'pred-obnovou';
  const conv = server.addConversation();
  const rt = manualRealtimes();
  const e = createSyncEngine({
    userId: 'user-1',
    server: server.api(),
    idb: { indexedDB: new IDBFactory(), IDBKeyRange },
    network: manualNetwork(true),
    timings: FAST_TIMINGS,
    transports: { realtime: rt.create },
    locks: null,
    channels: null,
  });
  engines.push(e);
  await e.start();
  await waitFor(() => e.status().loaded, 'first pull');
  await waitFor(() => rt.made.at(-1)?.connected() === true, 'realtime subscribed', 10_000);
  await e.settled();
  return { server, conv, rt, e };
}

const pulls = (server: FakeServer) => server.calls.filter((c) => c.method === 'pull').length;

describe('R9.18 realtime rows across a feed reset', () => {
  it('R9.18 R9.7 a row arriving after the reset on a channel joined before it is not merged: a pull asks the restored database, which has no such row', async () => {
    const { server, conv, rt, e } = await engineWithRealtime();
    const link = rt.made.at(-1)!;
    // Written before the backup's restore, its realtime frame still on the way.
    const lost = server.addMessage(conv.id, { text: 'stratená obnovou' });
    // The restore: the row is gone and the database is another one; the device's next pull resets.
    server.messages.delete(lost.id);
    server.epoch = 'po-obnove';
    e.syncNow();
    await waitFor(async () => {
      const feed = await e.db.meta.get('feed');
      return feed?.key === 'feed' && feed.epoch === 'po-obnove';
    }, 'the feed reset to the restored database');
    await e.settled();
    const before = pulls(server);
    link.emit(lost); // the delayed frame
    await waitFor(() => pulls(server) > before, 'the row asked for a pull');
    await e.settled();
    expect((await e.db.messages.toArray()).map((m) => m.text)).not.toContain('stratená obnovou');
  });

  it('R9.18 rows on the same channel before any reset are merged as they come (R6.5)', async () => {
    const { server, conv, rt, e } = await engineWithRealtime();
    expect(e.storedGeneration()).toBe(0);
    rt.made.at(-1)!.emit(server.addMessage(conv.id, { text: 'hneď' }));
    await waitFor(async () => (await e.db.messages.toArray()).some((m) => m.text === 'hneď'), 'the row merged');
    expect(e.storedGeneration()).toBe(1); // stored from the event itself (a pull publishes nothing)
  });
});

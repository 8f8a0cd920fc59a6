import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import type { LockManagerLike } from '../../../sync/session/leader.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { conversationList, messages, specialists } from '../../../sync/queries.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';
import { fakeLocks } from './helpers/fake-locks.ts';

let server: FakeServer;
let idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
const engines: SyncEngine[] = [];

function engine(opts: { network?: ReturnType<typeof manualNetwork>; locks?: LockManagerLike | null; channels?: null } = {}): SyncEngine {
  const e = createSyncEngine({
    userId: 'user-1',
    server: server.api(),
    idb,
    network: opts.network ?? manualNetwork(true),
    timings: FAST_TIMINGS,
    transports: { realtime: null },
    locks: opts.locks ?? null,
    ...(opts.channels === null ? { channels: null } : {}),
  });
  engines.push(e);
  return e;
}

beforeEach(() => {
  server = new FakeServer();
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop();
});

describe('engine', () => {
  it('R5.6 starts, pulls, and creates the first conversation of an empty account', async () => {
    const e = engine();
    await e.start();
    const list = await waitFor(async () => ((await conversationList(e.db)).length ? conversationList(e.db) : null), 'first conversation');
    expect(list).toHaveLength(1);
    expect(server.calls.filter((c) => c.method === 'ensureFirstConversation')).toHaveLength(1);
    expect(e.status()).toMatchObject({ loaded: true, leader: true });
    expect((await specialists(e.db)).length).toBe(2);
    expect(e.accountId()).toBe('acc-1');
  });

  it('invariant 1: a message typed offline survives a restart and is sent once back online', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    const e1 = engine({ network: net });
    await e1.start();
    await waitFor(() => e1.status().loaded, 'loaded');
    net.set(false);
    await waitFor(() => e1.status().connection === 'offline', 'offline status');
    const h = (await e1.commands.sendMessage({ conversationId: conv.id, text: 'Napísané offline' }))!;
    expect((await e1.db.messages.get(h.key))?.state).toBe('sending');
    await e1.stop({ abrupt: true });
    const e2 = engine({ network: net });
    await e2.start();
    expect((await e2.db.messages.get(h.key))?.state).toBe('sending');
    net.set(true);
    await waitFor(async () => (await e2.db.messages.get(h.key))?.state === 'sent', 'sent after reconnect');
    expect([...server.messages.values()].filter((m) => m.text === 'Napísané offline')).toHaveLength(1);
  });

  it('invariant 2: a reply lost on the way back is retried and stored once', async () => {
    const conv = server.addConversation();
    const api = server.api();
    let dropped = false;
    // The server stores the message, but the answer never arrives.
    const wrapped = { ...api, sendMessage: async (i: Parameters<typeof api.sendMessage>[0]) => {
      const r = await api.sendMessage(i);
      if (!dropped) {
        dropped = true;
        throw new Error('fetch failed');
      }
      return r;
    } };
    const e2 = createSyncEngine({ userId: 'user-2', server: wrapped, idb, network: manualNetwork(true), timings: FAST_TIMINGS, transports: { realtime: null }, locks: null });
    engines.push(e2);
    await e2.start();
    const h = (await e2.commands.sendMessage({ conversationId: conv.id, text: 'raz' }))!;
    await waitFor(async () => (await e2.db.messages.get(h.key))?.state === 'sent', 'sent');
    expect([...server.messages.values()].filter((m) => m.text === 'raz')).toHaveLength(1);
    expect((await messages(e2.db, conv.id)).filter((m) => m.text === 'raz')).toHaveLength(1);
  });

  it('R1.11 signOut deletes the user database', async () => {
    const e = engine();
    await e.start();
    await waitFor(() => e.status().loaded, 'loaded');
    await e.signOut();
    engines.splice(engines.indexOf(e), 1);
    expect((await idb.indexedDB.databases()).map((d) => d.name)).toEqual([]);
  });

  it('R8.1 a follower tab queues commands; the leader pushes them; the follower takes over when the leader stops', async () => {
    const conv = server.addConversation();
    // Named locks with modes (helpers/fake-locks.ts): the engine holds more than the leader lock (R1.12's writers lock).
    const locks = fakeLocks();
    const leader = engine({ locks });
    await leader.start();
    const follower = engine({ locks });
    await follower.start();
    await waitFor(() => leader.status().leader, 'leader');
    expect(follower.status().leader).toBe(false);
    const h = (await follower.commands.sendMessage({ conversationId: conv.id, text: 'z druhej karty' }))!;
    await waitFor(async () => (await follower.db.messages.get(h.key))?.state === 'sent', 'pushed by the leader');
    await leader.stop();
    await waitFor(() => follower.status().leader, 'follower takes over');
    const h2 = (await follower.commands.sendMessage({ conversationId: conv.id, text: 'už som líder' }))!;
    await waitFor(async () => (await follower.db.messages.get(h2.key))?.state === 'sent', 'pushed by the new leader');
  });
});

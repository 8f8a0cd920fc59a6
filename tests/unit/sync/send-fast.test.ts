// R1.12's fast path: the leader that is solo (solo.ts: no other context can write sends) starts a
// send's request before IndexedDB has answered anything, deciding R1.8 from its in-memory view
// (send-watch.ts). The guard holds back every IndexedDB answer: the request must already have gone.
// And what keeps it exact: a follower that writes a send first takes the leader out of solo, so R1.8's
// order holds across tabs; a conversation the view does not know goes the in-transaction way; a
// completed one is refused by the server and stored nowhere (the user sees the truth).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncDb, dbNameFor } from '../../../sync/db/schema.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { writersLockName } from '../../../sync/send/solo.ts';
import { TEXT_CONVERSATION_COMPLETED } from '../../../sync/model/texts.ts';
import type { ServerApi } from '../../../sync/server/api.ts';
import { channelHub, fakeLocks, type FakeLocks } from './helpers/fake-locks.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';
import { conversationRow } from './helpers/local-db.ts';

let server: FakeServer;
let idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
let locks: FakeLocks;
let hub: ReturnType<typeof channelHub>;
const engines: SyncEngine[] = [];
const restores: (() => void)[] = [];
const USER = 'user-1';

function engine(api: ServerApi = server.api()): SyncEngine {
  const e = createSyncEngine({
    userId: USER,
    server: api,
    idb,
    network: manualNetwork(true),
    // No ticks: only the send itself (or the flush it notifies) may start a request here.
    timings: { ...FAST_TIMINGS, tickMs: 600_000 },
    transports: { realtime: null },
    locks,
    channels: hub,
  });
  engines.push(e);
  return e;
}

const soloHeld = () => locks.query().held.some((l) => l.name === writersLockName(dbNameFor(USER)) && l.mode === 'exclusive');

/** Started, leading and solo (its view reloaded under the exclusive writers lock). */
async function soloLeader(api?: ServerApi): Promise<SyncEngine> {
  const e = engine(api);
  await e.start();
  await waitFor(() => e.status().loaded && e.status().leader, 'loaded and leading');
  await waitFor(soloHeld, 'solo');
  await e.settled();
  return e;
}

interface FakeTxProto {
  _start: (this: unknown) => void;
}

/**
 * Holds IndexedDB still (every transaction's next step: its start, each request's answer, its commit)
 * until released: fake-indexeddb runs a transaction one `_start` step at a time.
 */
function holdIndexedDbAnswers(e: SyncEngine) {
  const proto = Object.getPrototypeOf(e.db.backendDB().transaction(['outbox'], 'readonly')) as FakeTxProto;
  const original = proto._start;
  let held: (() => void)[] | null = null;
  proto._start = function (this: unknown) {
    if (held) held.push(() => original.call(this));
    else original.call(this);
  };
  const restore = () => {
    proto._start = original;
  };
  restores.push(restore);
  return {
    hold() {
      held = [];
    },
    release() {
      const h = held ?? [];
      held = null;
      restore();
      for (const f of h) f();
    },
  };
}

const sendCalls = () => server.calls.filter((c) => c.method === 'sendMessage').map((c) => (c.args[0] as { text: string }).text);
const serverTexts = (conversationId: string) =>
  [...server.messages.values()].filter((m) => m.conversation_id === conversationId && m.direction === 'user').sort((a, b) => a.change_seq - b.change_seq).map((m) => m.text);

beforeEach(() => {
  server = new FakeServer();
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  locks = fakeLocks();
  hub = channelHub();
});
afterEach(async () => {
  for (const r of restores.splice(0)) r();
  for (const e of engines.splice(0).reverse()) await e.stop();
});

describe('R1.12 the solo leader sends without waiting for IndexedDB', () => {
  it('R1.12 the send request starts while IndexedDB has answered nothing of its write; the command returns only after the commit', async () => {
    const conv = server.addConversation();
    const e = await soloLeader();
    const answers = holdIndexedDbAnswers(e);
    answers.hold();
    let returned = false;
    const sending = e.commands.sendMessage({ conversationId: conv.id, text: 'Hneď' }).then((h) => {
      returned = true;
      return h;
    });
    // Waiting for any IndexedDB answer (the transaction's start, its first reads), it could not start.
    await waitFor(() => sendCalls().includes('Hneď'), 'the request started with every IndexedDB answer held');
    await new Promise((r) => setTimeout(r, 30));
    expect(returned).toBe(false); // invariant 1: stored before the command returns
    answers.release();
    const h = (await sending)!;
    await waitFor(async () => (await e.db.messages.get(h.key))?.state === 'sent', 'stored as sent after the commit');
    await e.settled();
    expect(await e.db.outbox.count()).toBe(0);
    expect(sendCalls()).toEqual(['Hneď']); // R9.10: once
    expect(serverTexts(conv.id)).toEqual(['Hneď']);
  });

  it('R1.8 a second send typed before the first is confirmed waits for it (the view knows the first), another conversation does not', async () => {
    const conv = server.addConversation();
    const other = server.addConversation();
    const api = server.api();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const held: ServerApi = { ...api, sendMessage: async (i) => { const r = await api.sendMessage(i); await gate; return r; } };
    const e = await soloLeader(held);
    const first = e.commands.sendMessage({ conversationId: conv.id, text: 'prvá' });
    const second = e.commands.sendMessage({ conversationId: conv.id, text: 'druhá' });
    const third = e.commands.sendMessage({ conversationId: other.id, text: 'inde' });
    await Promise.all([first, second, third]);
    await waitFor(() => sendCalls().includes('inde'), 'the other conversation goes at once');
    await new Promise((r) => setTimeout(r, 50));
    expect(sendCalls()).toEqual(['prvá', 'inde']);
    open();
    await waitFor(async () => (await e.db.outbox.count()) === 0, 'all sent');
    expect(serverTexts(conv.id)).toEqual(['prvá', 'druhá']);
  });

  it('R1.8 a follower tab queues a send of the conversation just before the leader sends in it: typed order is server order', async () => {
    const conv = server.addConversation();
    const leader = await soloLeader();
    const follower = engine();
    await follower.start();
    await waitFor(() => follower.status().loaded, 'the follower mirrors the leader');
    // The follower's write waits for the writers lock; asking for it takes the leader out of solo.
    const h1 = (await follower.commands.sendMessage({ conversationId: conv.id, text: 'z druhej karty' }))!;
    // Same tick as the follower's commit: the leader has not pushed it yet.
    const h2 = (await leader.commands.sendMessage({ conversationId: conv.id, text: 'z prvej karty' }))!;
    await waitFor(async () => (await leader.db.outbox.count()) === 0, 'both sent');
    await leader.settled();
    expect(sendCalls()).toEqual(['z druhej karty', 'z prvej karty']);
    expect(serverTexts(conv.id)).toEqual(['z druhej karty', 'z prvej karty']);
    expect((await leader.db.messages.get(h1.key))?.state).toBe('sent');
    expect((await leader.db.messages.get(h2.key))?.state).toBe('sent');
  });

  it('R1.12 the leader is solo again once the follower left, and its view has what the follower queued', async () => {
    const conv = server.addConversation();
    const leader = await soloLeader();
    const net = manualNetwork(false);
    const follower = createSyncEngine({ userId: USER, server: server.api(), idb, network: net, timings: { ...FAST_TIMINGS, tickMs: 600_000 }, transports: { realtime: null }, locks, channels: hub });
    await follower.start();
    await waitFor(() => !soloHeld(), 'not solo while a follower may write');
    leader.syncNow();
    await leader.settled();
    await follower.stop();
    await waitFor(soloHeld, 'solo again after the follower left');
    await leader.settled();
    const answers = holdIndexedDbAnswers(leader);
    answers.hold();
    const sending = leader.commands.sendMessage({ conversationId: conv.id, text: 'sólo' });
    await waitFor(() => sendCalls().includes('sólo'), 'fast again');
    answers.release();
    await sending;
  });

  it('R1.8 a retry (a send whose conversation is known only inside its write) keeps a send typed right after it behind it', async () => {
    const conv = server.addConversation();
    const leader = await soloLeader();
    server.fail('sendMessage', 'permanent', 1);
    const failed = (await leader.commands.sendMessage({ conversationId: conv.id, text: 'znova' }))!;
    await waitFor(async () => (await leader.db.messages.get(failed.key))?.state === 'failed', 'failed');
    await leader.settled();
    // Same tick: the retry's transaction reads the failed copy first; the send must not overtake it.
    const retried = leader.commands.retryMessage(failed.key);
    const next = leader.commands.sendMessage({ conversationId: conv.id, text: 'potom' });
    await Promise.all([retried, next]);
    await waitFor(async () => (await leader.db.outbox.count()) === 0, 'both sent');
    await leader.settled();
    expect(serverTexts(conv.id)).toEqual(['znova', 'potom']);
  });

  it('R1.12 a conversation the view does not know goes the in-transaction way: its request waits for the reads', async () => {
    const leader = await soloLeader();
    const conv = server.addConversation();
    // Written by another connection (as a merge in another context would be): the leader's view has no facts of it.
    const other = new SyncDb(dbNameFor(USER), { indexedDB: idb.indexedDB, IDBKeyRange });
    await other.open();
    const row = conversationRow({
      id: conv.id,
      accountId: server.accountId,
      createdAt: conv.created_at,
      updatedAt: conv.updated_at,
      changeSeq: conv.change_seq,
      sortAt: conv.created_at,
    });
    await other.conversations.put(row);
    other.close();
    const answers = holdIndexedDbAnswers(leader);
    answers.hold();
    const sending = leader.commands.sendMessage({ conversationId: conv.id, text: 'neznáma' });
    await new Promise((r) => setTimeout(r, 50));
    expect(sendCalls()).toEqual([]);
    answers.release();
    const h = (await sending)!;
    await waitFor(async () => (await leader.db.messages.get(h.key))?.state === 'sent', 'sent after the reads');
    expect(serverTexts(conv.id)).toEqual(['neznáma']);
  });

  it('R1.2 a conversation completed where the view still says active: the server refuses, nothing is stored, the command answers null', async () => {
    const conv = server.addConversation();
    const leader = await soloLeader();
    leader.syncNow();
    await waitFor(async () => (await leader.db.conversations.get(conv.id)) !== undefined, 'pulled');
    await leader.settled();
    // Completed on the server and in IndexedDB by another connection: the view does not know yet.
    server.conversations.set(conv.id, { ...server.conversations.get(conv.id)!, status: 'completed', change_seq: ++server.seq });
    const other = new SyncDb(dbNameFor(USER), { indexedDB: idb.indexedDB, IDBKeyRange });
    await other.open();
    await other.conversations.update(conv.id, { status: 'completed' });
    other.close();
    const h = await leader.commands.sendMessage({ conversationId: conv.id, text: 'neskoro' });
    expect(h).toBeNull();
    await leader.settled();
    expect(sendCalls()).toEqual(['neskoro']); // it went fast…
    expect(serverTexts(conv.id)).toEqual([]); // …and was refused (400, as send_message answers, R9.3)
    expect(await leader.db.outbox.count()).toBe(0);
    expect((await leader.db.messages.toArray()).filter((m) => m.text === 'neskoro')).toEqual([]);
  });

  it('R9.3 completed on the server only: the message is stored, goes fast, and ends failed with the Slovak reason', async () => {
    const conv = server.addConversation();
    const leader = await soloLeader();
    leader.syncNow();
    await waitFor(async () => (await leader.db.conversations.get(conv.id)) !== undefined, 'pulled');
    await leader.settled();
    server.conversations.set(conv.id, { ...server.conversations.get(conv.id)!, status: 'completed', change_seq: ++server.seq });
    const h = (await leader.commands.sendMessage({ conversationId: conv.id, text: 'neskoro' }))!;
    await waitFor(async () => (await leader.db.messages.get(h.key))?.state === 'failed', 'failed');
    expect((await leader.db.messages.get(h.key))?.error).toBe(TEXT_CONVERSATION_COMPLETED);
    expect(sendCalls()).toEqual(['neskoro']);
    expect(await leader.db.outbox.count()).toBe(0);
  });
});

describe('R1.13 a start that failed never leaves a send waiting for the writers', () => {
  it('R1.13 IndexedDB cannot open: start() rejects and sendMessage rejects too, it does not wait forever', async () => {
    // A browser whose IndexedDB refuses to open (private mode, a broken profile): every open errors.
    const broken = new IDBFactory();
    broken.open = () => {
      throw new DOMException('IndexedDB is unavailable', 'InvalidStateError');
    };
    idb = { indexedDB: broken, IDBKeyRange };
    const e = engine();
    await expect(e.start()).rejects.toThrow();
    const outcome = await Promise.race([
      e.commands.sendMessage({ conversationId: crypto.randomUUID(), text: 'Ahoj' }).then(
        () => 'returned',
        () => 'rejected',
      ),
      new Promise((r) => setTimeout(() => r('still waiting'), 2000)),
    ]);
    expect(outcome).toBe('rejected');
  });
});

// R1.12: a send's request starts inside its write transaction, not behind its commit (issue 19, bench
// row 4c). The guard: a fake-indexeddb whose commit of the send's write is held — the request must
// start while it is held. And what keeps it safe: the outcome waits for the commit, a write that fails
// after the request started loses nothing (the server has the message once), R1.8's order and
// R9.10's one request per entry hold.
// The guard that the solo leader waits for no IndexedDB answer at all is tests/unit/sync/send-fast.test.ts.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import type { SendResult, ServerApi } from '../../../sync/server/api.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

let server: FakeServer;
let idb: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange };
const engines: SyncEngine[] = [];
const restores: (() => void)[] = [];

/** The server's API with every sendMessage reply held until `open()` (the request is recorded at once). */
function heldReplies(api: ServerApi) {
  let gate: Promise<void> | null = null;
  let open = () => undefined as void;
  const wrapped: ServerApi = {
    ...api,
    sendMessage: async (input): Promise<SendResult> => {
      const res = await api.sendMessage(input);
      if (gate) await gate;
      return res;
    },
  };
  return {
    api: wrapped,
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    open() {
      gate = null;
      open();
    },
  };
}

/** Requests of `text` wait before they reach the server until `open()`: on the wire, not stored (R9.15 settles a stored one). */
function heldOnTheWire(api: ServerApi, text: string) {
  let open = () => undefined as void;
  const gate = new Promise<void>((r) => (open = r));
  const wrapped: ServerApi = {
    ...api,
    sendMessage: async (input): Promise<SendResult> => {
      if (input.text === text) await gate;
      return api.sendMessage(input);
    },
  };
  return { api: wrapped, open: () => open() };
}

function engine(api: ServerApi = server.api(), network = manualNetwork(true), timings = {}): SyncEngine {
  const e = createSyncEngine({
    userId: 'user-1',
    server: api,
    idb,
    network,
    timings: { ...FAST_TIMINGS, ...timings },
    transports: { realtime: null },
    locks: null,
    channels: null,
  });
  engines.push(e);
  return e;
}

interface FakeTx {
  mode: string;
  objectStoreNames: { contains(name: string): boolean };
  dispatchEvent: (this: FakeTx, e: { type: string }) => boolean;
}

/**
 * Holds the `complete` event of every read-write transaction over messages and outbox (a send's write)
 * until released: Dexie's transaction — and so everything awaiting the commit — does not resolve.
 */
function holdWriteCommits(e: SyncEngine) {
  const proto = Object.getPrototypeOf(e.db.backendDB().transaction(['outbox'], 'readonly')) as FakeTx;
  const original = proto.dispatchEvent;
  let held: (() => void)[] | null = null;
  proto.dispatchEvent = function (this: FakeTx, event: { type: string }) {
    if (held && event.type === 'complete' && this.mode === 'readwrite' && this.objectStoreNames.contains('outbox') && this.objectStoreNames.contains('messages')) {
      held.push(() => original.call(this, event));
      return true;
    }
    return original.call(this, event);
  };
  const restore = () => {
    proto.dispatchEvent = original;
  };
  restores.push(restore);
  return {
    hold() {
      held = [];
    },
    release() {
      const h = held ?? [];
      held = null;
      for (const f of h) f();
    },
    restore,
  };
}

const sendCalls = () => server.calls.filter((c) => c.method === 'sendMessage').map((c) => (c.args[0] as { text: string }).text);
const serverTexts = (conversationId: string) =>
  [...server.messages.values()].filter((m) => m.conversation_id === conversationId && m.direction === 'user').sort((a, b) => a.change_seq - b.change_seq).map((m) => m.text);

async function started(e: SyncEngine) {
  await e.start();
  await waitFor(() => e.status().loaded, 'loaded');
  await e.settled();
}

beforeEach(() => {
  server = new FakeServer();
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
});
afterEach(async () => {
  for (const r of restores.splice(0)) r();
  for (const e of engines.splice(0)) await e.stop();
});

describe('R1.12 a send goes out while its write commits', () => {
  it('R1.12 the send request starts before the IndexedDB commit of its write resolves; its outcome is stored after it', async () => {
    const conv = server.addConversation();
    // No ticks: a held commit's rows are visible to other transactions in fake-indexeddb, and a tick's
    // flush would find the entry; only the send itself may start the request here.
    const e = engine(server.api(), manualNetwork(true), { tickMs: 600_000 });
    await started(e);
    const commits = holdWriteCommits(e);
    commits.hold();
    let returned = false;
    const sending = e.commands.sendMessage({ conversationId: conv.id, text: 'Rýchlo' }).then((h) => {
      returned = true;
      return h;
    });
    // Serialised behind the commit (the flush after it), the request could never start while it is held.
    await waitFor(() => sendCalls().includes('Rýchlo'), 'the request started while the commit is held');
    await new Promise((r) => setTimeout(r, 30));
    expect(returned).toBe(false); // invariant 1: the command (and the composer) still waits for the commit
    commits.release();
    commits.restore();
    const h = (await sending)!;
    await waitFor(async () => (await e.db.messages.get(h.key))?.state === 'sent', 'stored as sent after the commit');
    expect(await e.db.outbox.count()).toBe(0);
    expect(sendCalls()).toEqual(['Rýchlo']); // R9.10: the flush after the commit did not push it again
    expect(serverTexts(conv.id)).toEqual(['Rýchlo']);
  });

  it('R1.12 a write that fails after its request started loses nothing: the server has the message once and the feed brings it', async () => {
    const conv = server.addConversation();
    const e = engine();
    await started(e);
    const put = e.db.messages.put.bind(e.db.messages);
    e.db.messages.put = () => {
      throw new Error('disk full');
    };
    await expect(e.commands.sendMessage({ conversationId: conv.id, text: 'Pred pádom' })).rejects.toThrow('disk full');
    e.db.messages.put = put;
    expect(await e.db.outbox.count()).toBe(0);
    await waitFor(() => serverTexts(conv.id).length === 1, 'the server took it');
    e.syncNow();
    await waitFor(async () => (await e.db.messages.where('conversationId').equals(conv.id).toArray()).some((m) => m.text === 'Pred pádom'), 'pulled back');
    await e.settled();
    expect((await e.db.messages.where('conversationId').equals(conv.id).toArray()).filter((m) => m.text === 'Pred pádom')).toHaveLength(1);
    expect(serverTexts(conv.id)).toEqual(['Pred pádom']);
  });

  it('R1.12 R9.15 a crash after the commit, before the reply: the next engine finds the send stored (its row pulled) and the server keeps one copy', async () => {
    const conv = server.addConversation();
    const held = heldReplies(server.api());
    const e1 = engine(held.api, manualNetwork(true), { requestTimeoutMs: 50 });
    await started(e1);
    held.hold();
    const h = (await e1.commands.sendMessage({ conversationId: conv.id, text: 'Bez odpovede' }))!;
    await waitFor(() => sendCalls().length === 1, 'first request');
    await e1.stop({ abrupt: true }); // the tab is gone: its request's reply never reaches a write
    engines.splice(engines.indexOf(e1), 1);
    const e2 = engine(server.api(), manualNetwork(true), { requestTimeoutMs: 50 });
    await e2.start();
    // The server stored it: the next engine's first pull brings its row and that settles the entry
    // (R9.15) before the first engine's claim (request timeout + 5 s) would have run out.
    await waitFor(async () => (await e2.db.outbox.count()) === 0, 'confirmed', 12_000);
    expect((await e2.db.messages.get(h.key))?.state).toBe('sent');
    expect(sendCalls()).toEqual(['Bez odpovede']);
    expect(serverTexts(conv.id)).toEqual(['Bez odpovede']);
    held.open();
  }, 20_000);

  it('R1.8 a send typed while the previous one of its conversation is on the wire waits for it; another conversation does not', async () => {
    const conv = server.addConversation();
    const other = server.addConversation();
    const wire = heldOnTheWire(server.api(), 'prvá');
    const e = engine(wire.api);
    await started(e);
    await e.commands.sendMessage({ conversationId: conv.id, text: 'prvá' });
    await e.commands.sendMessage({ conversationId: conv.id, text: 'druhá' });
    await e.commands.sendMessage({ conversationId: other.id, text: 'inde' });
    await waitFor(() => sendCalls().includes('inde'), 'the other conversation is not held up');
    await new Promise((r) => setTimeout(r, 50));
    expect(sendCalls()).toEqual(['inde']); // 'prvá' still on the wire, 'druhá' waits for it
    wire.open();
    await waitFor(async () => (await e.db.outbox.count()) === 0, 'all sent');
    expect(serverTexts(conv.id)).toEqual(['prvá', 'druhá']);
    expect(sendCalls().sort()).toEqual(['druhá', 'inde', 'prvá']); // R9.10: one request per entry
  });

  it('R1.12 offline the send is only queued; back online the flush sends it once', async () => {
    const conv = server.addConversation();
    const net = manualNetwork(true);
    const e = engine(server.api(), net);
    await started(e);
    net.set(false);
    await e.commands.sendMessage({ conversationId: conv.id, text: 'Offline' });
    await new Promise((r) => setTimeout(r, 30));
    expect(sendCalls()).toEqual([]);
    net.set(true);
    await waitFor(async () => (await e.db.outbox.count()) === 0, 'sent once online');
    expect(sendCalls()).toEqual(['Offline']);
  });
});

// R6.8: a send is relayed to the user's other devices as soon as its request has started, and another
// device's relayed send is handed to an open chat as a transient "sending" copy that its stored row
// replaces or a timer drops. Nothing relayed is ever stored.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type Arriving, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import { RELAY_HOLD_MS } from '../../../sync/receive/published.ts';
import { RELAY_MAX_TEXT, relayedMessage, relayedSend, relayedWithdrawal, withdrawnKey } from '../../../sync/receive/relayed.ts';
import type { Relay, RelayedSend, RelayedWithdrawal } from '../../../sync/transports/relay.ts';
import type { TransportEvent } from '../../../sync/transports/transport.ts';
import { linkRelay } from '../../../sync/receive/relay-link.ts';
import { systemClock, type Clock, type TimerId } from '../../../sync/model/clock.ts';
import type { ServerApi } from '../../../sync/server/api.ts';
import { channelHub, fakeLocks } from './helpers/fake-locks.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

const ACCOUNT = '0b5c2f1e-8a3d-4c6b-9e7f-1a2b3c4d5e6f';
const CONV = '3f1e2d4c-5b6a-4798-8a9b-0c1d2e3f4a5b';
const CORR = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

describe('R6.8 what is relayed, and what a relayed copy is', () => {
  const send = { accountId: ACCOUNT, conversationId: CONV, correlationId: CORR.toUpperCase(), text: 'Ahoj', payload: null, serverNowMs: Date.UTC(2026, 10, 27, 12) };

  it('R6.8 a plain text send of a known account is relayed; a payload, a long text or no account is not', () => {
    expect(relayedSend(send)).toEqual({ v: 1, account_id: ACCOUNT, conversation_id: CONV, client_correlation_id: CORR, text: 'Ahoj', created_at: '2026-11-27T12:00:00.000Z' });
    expect(relayedSend({ ...send, payload: { card: 1 } })).toBeNull();
    expect(relayedSend({ ...send, text: 'x'.repeat(RELAY_MAX_TEXT + 1) })).toBeNull();
    expect(relayedSend({ ...send, accountId: null })).toBeNull();
  });

  it('R6.8 the copy is the sender’s optimistic row: a user text message, sending, under its correlation key', () => {
    const copy = relayedMessage(relayedSend(send), ACCOUNT, 'user-1')!;
    expect(copy).toMatchObject({
      key: `c:${CORR}`,
      serverId: null,
      conversationId: CONV,
      text: 'Ahoj',
      direction: 'user',
      type: 'text',
      state: 'sending',
      origin: 'optimistic',
      changeSeq: 0,
      senderUserId: 'user-1',
      correlationId: CORR,
      createdAt: '2026-11-27T12:00:00.000000Z',
      orderKey: `2026-11-27T12:00:00.000000Z ${CORR}`,
    });
  });

  it('R6.8 a payload of another account, or malformed in any field, hands nothing over', () => {
    const good = relayedSend(send)!;
    const bad: unknown[] = [
      null,
      'text',
      { ...good, v: 2 },
      { ...good, account_id: '00000000-0000-4000-8000-000000000000' },
      { ...good, conversation_id: 'not-a-uuid' },
      { ...good, client_correlation_id: 42 },
      { ...good, text: '   ' },
      { ...good, text: 'x'.repeat(RELAY_MAX_TEXT + 1) },
      { ...good, created_at: 'včera' },
    ];
    for (const p of bad) expect(relayedMessage(p, ACCOUNT, 'user-1')).toBeNull();
    expect(relayedMessage(good, null, 'user-1')).toBeNull();
  });

  it('R6.8 a withdrawal names the copy by its correlation key, for one account; a malformed one names nothing', () => {
    const w = relayedWithdrawal(ACCOUNT, CORR.toUpperCase())!;
    expect(w).toEqual({ v: 1, account_id: ACCOUNT, client_correlation_id: CORR });
    expect(withdrawnKey(w, ACCOUNT)).toBe(relayedMessage(relayedSend(send), ACCOUNT, 'user-1')!.key);
    expect(relayedWithdrawal(null, CORR)).toBeNull();
    expect(relayedWithdrawal(ACCOUNT, 'not-a-uuid')).toBeNull();
    for (const p of [null, 'x', { ...w, v: 2 }, { ...w, account_id: '00000000-0000-4000-8000-000000000000' }, { ...w, client_correlation_id: 'c:1' }]) {
      expect(withdrawnKey(p, ACCOUNT)).toBeNull();
    }
    expect(withdrawnKey(w, null)).toBeNull();
  });
});

/** Two engines' relays joined as the user's private topic joins them (each hears the other, not itself). */
function relayPair() {
  const listeners = new Map<number, { copy: (p: unknown) => void; withdrawn: (p: unknown) => void }>();
  const published: RelayedSend[] = [];
  const withdrawn: RelayedWithdrawal[] = [];
  const relay = (index: number): Relay => ({
    subscribe: (copy, onWithdrawn) => void listeners.set(index, { copy, withdrawn: onWithdrawn }),
    publish: (s) => {
      published.push(s);
      for (const [i, l] of listeners) if (i !== index) l.copy(structuredClone(s));
      return true;
    },
    withdraw: (w) => {
      withdrawn.push(w);
      for (const [i, l] of listeners) if (i !== index) l.withdrawn(structuredClone(w));
      return true;
    },
    close: async () => void listeners.delete(index),
  });
  return { relay, published, withdrawn };
}

let server: FakeServer;
const sendCalls = () => server.calls.filter((c) => c.method === 'sendMessage').map((c) => (c.args[0] as { text: string }).text);
const engines: SyncEngine[] = [];
beforeEach(() => {
  server = new FakeServer();
});
afterEach(async () => {
  for (const e of engines.splice(0).reverse()) await e.stop();
});

/** The system clock, but timers of RELAY_HOLD_MS or longer wait for `fire()` (the relay's hold is one). */
function holdingClock() {
  const held = new Map<TimerId, () => void>();
  let n = 0;
  const clock: Clock = {
    now: () => systemClock.now(),
    setTimeout: (fn, ms) => {
      if (ms < RELAY_HOLD_MS) return systemClock.setTimeout(fn, ms);
      const id = { held: ++n } as unknown as TimerId;
      held.set(id, fn);
      return id;
    },
    clearTimeout: (id) => (held.has(id) ? void held.delete(id) : systemClock.clearTimeout(id)),
  };
  return {
    clock,
    held: () => held.size,
    fire: () => {
      const fns = [...held.values()];
      held.clear();
      for (const fn of fns) fn();
    },
  };
}

function device(relay: () => Relay, opts: { api?: ServerApi; clock?: Clock; locks?: null } = {}): SyncEngine {
  const e = createSyncEngine({
    userId: 'user-1',
    server: opts.api ?? server.api(),
    idb: { indexedDB: new IDBFactory(), IDBKeyRange },
    network: manualNetwork(true),
    timings: { ...FAST_TIMINGS, tickMs: 600_000 },
    transports: { realtime: null, relay },
    // Web Locks: the leader is solo and sends on the fast path (R1.12); none (null): every engine
    // leads, none is solo, and the request starts inside the write transaction.
    locks: opts.locks === null ? null : fakeLocks(),
    channels: channelHub(),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  engines.push(e);
  return e;
}

/**
 * A (this test's server) and B (a server double of its own, same account: what B stores can only come
 * from its own pulls, which never see A's message — the relay alone reaches B), both leading and
 * settled; B's long timers (the relay's hold among them) wait for `hold.fire()`.
 */
async function twoDevices(opts: { relayA?: (r: Relay) => Relay; apiA?: ServerApi } = {}) {
  const pair = relayPair();
  const a = device(() => (opts.relayA ?? ((r) => r))(pair.relay(0)), opts.apiA ? { api: opts.apiA } : {});
  const hold = holdingClock();
  const b = device(() => pair.relay(1), { clock: hold.clock, api: new FakeServer().api() });
  const seen: Arriving[] = [];
  b.subscribeArriving((x) => seen.push(x));
  await Promise.all([a.start(), b.start()]);
  await waitFor(() => a.status().loaded && b.status().loaded && a.status().leader && b.status().leader, 'both lead');
  await Promise.all([a.settled(), b.settled()]);
  return { pair, a, b, hold, seen };
}

describe('R6.8 the relay between two devices of one user', () => {
  it('R6.8 a send is relayed only after its request started; the other device paints it as sending, then drops it after RELAY_HOLD_MS unless stored', async () => {
    const conv = server.addConversation();
    const order: string[] = [];
    const api = server.api();
    const tracked: ServerApi = {
      ...api,
      sendMessage: (input) => {
        order.push('request');
        return api.sendMessage(input);
      },
    };
    const { pair, b, a, hold, seen } = await twoDevices({ relayA: (r) => ({ ...r, publish: (s) => (order.push('relay'), r.publish(s)) }), apiA: tracked });

    const h = (await a.commands.sendMessage({ conversationId: conv.id, text: 'Z telefónu' }))!;
    expect(order.slice(0, 2)).toEqual(['request', 'relay']);
    expect(pair.published).toHaveLength(1);
    expect(seen).toEqual([{ row: expect.objectContaining({ key: h.key, text: 'Z telefónu', state: 'sending', conversationId: conv.id }) }]);
    // Nothing of it was stored on B.
    expect(await b.db.messages.count()).toBe(0);
    expect(hold.held()).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
    hold.fire();
    expect(seen[1]).toEqual({ settled: h.key });
    expect(await b.db.messages.count()).toBe(0);
  });

  it('R6.8 a send whose request starts inside its write (no solo leader) is relayed once it is stored', async () => {
    const conv = server.addConversation();
    const published: RelayedSend[] = [];
    let stored = -1;
    const a = device(() => ({ subscribe: () => undefined, publish: (s) => (published.push(s), true), withdraw: () => true, close: async () => undefined }), { locks: null });
    await a.start();
    await waitFor(() => a.status().loaded && a.status().leader, 'leading');
    await a.settled();
    a.db.messages.hook('creating', () => void (stored = published.length));
    await a.commands.sendMessage({ conversationId: conv.id, text: 'Z transakcie' });
    expect(published.map((p) => p.text)).toEqual(['Z transakcie']);
    // The write came first here: nothing was relayed when the row was created.
    expect(stored).toBe(0);
    expect(sendCalls()).toContain('Z transakcie');
  });

  it('R6.8 a relayed send that lands while the engine stops is dropped: no copy, no timer left', async () => {
    let deliver: (p: unknown) => void = () => undefined;
    const hold = holdingClock();
    const b = device(() => ({ subscribe: (fn) => void (deliver = fn), publish: () => true, withdraw: () => true, close: async () => undefined }), { clock: hold.clock });
    const seen: Arriving[] = [];
    b.subscribeArriving((x) => seen.push(x));
    await b.start();
    await waitFor(() => b.status().loaded && b.status().leader, 'leading');
    const before = hold.held();
    await b.stop();
    engines.splice(engines.indexOf(b), 1);
    deliver(relayedSend({ accountId: server.accountId, conversationId: CONV, correlationId: CORR, text: 'Neskoro', payload: null, serverNowMs: Date.now() }));
    expect(seen).toEqual([]);
    expect(hold.held()).toBeLessThanOrEqual(before);
  });

  it('R6.8 a send while the relay cannot publish still goes; a send with a payload is not relayed', async () => {
    const conv = server.addConversation();
    const published: RelayedSend[] = [];
    const a = device(() => ({ subscribe: () => undefined, publish: (s) => (published.push(s), false), withdraw: () => true, close: async () => undefined }));
    await a.start();
    await waitFor(() => a.status().loaded && a.status().leader, 'leading');
    await a.settled();
    await a.commands.sendMessage({ conversationId: conv.id, text: 'Bez spojenia' });
    await a.commands.sendMessage({ conversationId: conv.id, text: 'S kartou', payload: { kind: 'card' } });
    await waitFor(() => [...server.messages.values()].filter((m) => m.conversation_id === conv.id).length === 2, 'both sent');
    expect(published.map((p) => p.text)).toEqual(['Bez spojenia']);
  });
  it('R6.8 a send the server refuses is withdrawn: the other device drops its copy at once, not after RELAY_HOLD_MS', async () => {
    const conv = server.addConversation();
    const { pair, a, b, hold, seen } = await twoDevices();
    // Completed meanwhile on the server (A's view still thinks it active): the send is refused for good.
    server.fail('sendMessage', 'permanent', 1, 'Conversation is completed', 400);
    const timersBefore = hold.held();

    const h = (await a.commands.sendMessage({ conversationId: conv.id, text: 'Neprejde' }))!;
    expect(seen).toEqual([{ row: expect.objectContaining({ key: h.key, state: 'sending' }) }]);
    await waitFor(() => seen.length === 2, 'the copy settled');
    expect(seen[1]).toEqual({ settled: h.key });
    // Withdrawn only once A stored the failure; B's hold timer no longer runs, nothing was stored on B.
    expect(await a.db.messages.get(h.key)).toMatchObject({ state: 'failed' });
    expect(pair.withdrawn).toEqual([{ v: 1, account_id: server.accountId, client_correlation_id: h.correlationId }]);
    expect(hold.held()).toBe(timersBefore);
    expect(await b.db.messages.count()).toBe(0);
    hold.fire();
    expect(seen).toHaveLength(2);
  });

  it('R6.8 a send that only waits (a transient failure) is not withdrawn; a withdrawal of no shown copy or of another account drops nothing', async () => {
    const conv = server.addConversation();
    const { pair, a, b, hold, seen } = await twoDevices();
    server.fail('sendMessage', 'transient', 1);
    const timersBefore = hold.held();

    const h = (await a.commands.sendMessage({ conversationId: conv.id, text: 'Čaká' }))!;
    await waitFor(() => sendCalls().filter((t) => t === 'Čaká').length === 2, 'retried and sent');
    await a.settled();
    expect(pair.withdrawn).toEqual([]);
    // Withdrawals B must ignore: another copy's, another account's, a malformed one.
    const other = relayedWithdrawal(server.accountId, '0f0e0d0c-0b0a-4909-8807-060504030201')!;
    pair.relay(2).withdraw(other);
    pair.relay(2).withdraw({ ...relayedWithdrawal(server.accountId, h.correlationId)!, account_id: '00000000-0000-4000-8000-000000000000' });
    pair.relay(2).withdraw({ v: 1 } as unknown as RelayedWithdrawal);
    expect(seen).toEqual([{ row: expect.objectContaining({ key: h.key, state: 'sending' }) }]);
    expect(hold.held()).toBe(timersBefore + 1);
    hold.fire();
    expect(seen[1]).toEqual({ settled: h.key });
    expect(await b.db.messages.count()).toBe(0);
  });
});

describe("R18.7 the database's feed numbers on the relay's user channel", () => {
  /** linkRelay over a relay whose user channel is driven by the test; the feed events it hands on. */
  function linked(accountId: string | null) {
    let onFeed: ((p: unknown) => void) | undefined;
    const relay: Relay = { subscribe: (_c, _w, f) => void (onFeed = f), publish: () => true, withdraw: () => true, close: async () => undefined };
    const events: TransportEvent[] = [];
    linkRelay(relay, { published: { onRelayed: () => undefined, onWithdrawn: () => undefined }, accountId: () => accountId, serverNowMs: () => 0, onFeed: (e) => events.push(e) });
    return { feed: (p: unknown) => onFeed!(p), events };
  }

  it('R18.7 a number of the account the engine acts in becomes a feed event; another account, a malformed payload or no account yet hand on nothing', () => {
    const l = linked(ACCOUNT);
    l.feed({ v: 1, account_id: ACCOUNT, change_seq: 42, id: 'x' });
    for (const p of [null, 'x', { account_id: ACCOUNT }, { account_id: ACCOUNT, change_seq: '42' }, { account_id: ACCOUNT, change_seq: 1.5 }, { account_id: CONV, change_seq: 43 }]) l.feed(p);
    expect(l.events).toEqual([{ kind: 'feed', accountId: ACCOUNT, changeSeq: 42 }]);
    const none = linked(null);
    none.feed({ v: 1, account_id: ACCOUNT, change_seq: 42 });
    expect(none.events).toEqual([]);
  });
});

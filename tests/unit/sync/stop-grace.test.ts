// R9.13: engine.stop() waits for the work in flight — a request on the wire, a database write — and
// for nothing else, at most 1.5 s. Idle, it stops at once: the relay's socket close and a pull or push
// still waiting for the session gate are not work in flight (session 29: every restart of the sync
// kit's devices waited 150 ms for the relay's socket to report closed, and 1.5 s when the gate hung).
// Time here is the engine's injected clock: its long timers (the 1.5 s grace among them) fire only
// when the test moves it, so "at once" means "before the clock moved", never a wall-clock bound.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { systemClock, type Clock, type TimerId } from '../../../sync/model/clock.ts';
import type { ServerApi } from '../../../sync/server/api.ts';
import type { AuthGate, AuthState } from '../../../sync/session/auth.ts';
import { manualNetwork } from '../../../sync/session/network.ts';
import type { Relay } from '../../../sync/transports/relay.ts';
import { FakeServer } from './helpers/fake-server.ts';
import { FAST_TIMINGS, waitFor } from './helpers/wait.ts';

/** Timers this long or longer wait for `move()`: the stop grace (1.5 s) and the request timeout. */
const HELD_FROM_MS = 1000;

/** The system clock, but timers of HELD_FROM_MS or more fire only when the test moves the clock. */
function heldClock() {
  const held = new Map<TimerId, () => void>();
  let n = 0;
  let moved = 0;
  const clock: Clock = {
    now: () => systemClock.now(),
    setTimeout: (fn, ms) => {
      if (ms < HELD_FROM_MS) return systemClock.setTimeout(fn, ms);
      const id = { held: ++n } as unknown as TimerId;
      held.set(id, fn);
      return id;
    },
    clearTimeout: (id) => (held.has(id) ? void held.delete(id) : systemClock.clearTimeout(id)),
  };
  return {
    clock,
    /** Fires every held timer, as if their time had come. */
    move() {
      moved++;
      const fns = [...held.values()];
      held.clear();
      for (const fn of fns) fn();
    },
    moved: () => moved,
  };
}

const engines: SyncEngine[] = [];
let server: FakeServer;
beforeEach(() => {
  server = new FakeServer();
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop({ abrupt: true });
});

// Nothing runs by itself while the test looks: no polls, health refetches or ticks within the test.
const QUIET = { ...FAST_TIMINGS, tickMs: 600_000, pollIdleMs: 600_000, pollStartMs: 600_000, pollMaxMs: 600_000, healthIdleMs: 600_000 };

function engine(clock: Clock, opts: { relay?: Relay; auth?: AuthGate; api?: ServerApi } = {}): SyncEngine {
  const e = createSyncEngine({
    userId: 'user-1',
    server: opts.api ?? server.api(),
    idb: { indexedDB: new IDBFactory(), IDBKeyRange },
    network: manualNetwork(true),
    timings: QUIET,
    clock,
    transports: { realtime: null, relay: opts.relay ? () => opts.relay! : null },
    locks: null,
    ...(opts.auth ? { auth: opts.auth } : {}),
  });
  engines.push(e);
  return e;
}

/**
 * Calls stop() and lets the event loop turn (the clock standing still) until it resolves; if it has
 * not after 100 turns, moves the clock — the grace's end — and waits for it. Returns how many times
 * the clock had to move: 0 when stop() resolved by itself.
 */
async function stopAndCountMoves(e: SyncEngine, c: ReturnType<typeof heldClock>): Promise<number> {
  let done = false;
  const stopped = e.stop().then(() => (done = true));
  for (let turn = 0; turn < 100 && !done; turn++) await new Promise((r) => setImmediate(r));
  const before = c.moved();
  while (!done) {
    c.move();
    await new Promise((r) => setImmediate(r));
  }
  await stopped;
  return c.moved() - before;
}

async function started(e: SyncEngine): Promise<void> {
  await e.start();
  await waitFor(() => e.status().loaded && e.status().leader, 'loaded and leading');
  await e.settled();
}

describe('R9.13 stop() waits for the work in flight, and only for it', () => {
  it('R9.13 an idle engine stops at once, though its relay socket never reports closed', async () => {
    const c = heldClock();
    let closing = 0;
    // A socket whose close frame never comes: realtime-js would report it closed after 1.5 s.
    const relay: Relay = { subscribe: () => undefined, publish: () => true, withdraw: () => true, close: () => (closing++, new Promise<void>(() => undefined)) };
    const e = engine(c.clock, { relay });
    await started(e);
    expect(await stopAndCountMoves(e, c)).toBe(0);
    expect(closing).toBe(1); // the relay was still closed
  });

  it('R9.13 a pull and a push waiting for a session gate that never answers end at stop() at once, having sent nothing', async () => {
    const c = heldClock();
    const conv = server.addConversation();
    let hang = false;
    let asked = 0;
    const listeners = new Set<() => void>();
    const auth: AuthGate = {
      ensure: (): Promise<AuthState> => {
        asked++;
        return hang ? new Promise<AuthState>(() => undefined) : Promise.resolve('ok');
      },
      subscribe: (fn) => (listeners.add(fn), () => void listeners.delete(fn)),
    };
    const e = engine(c.clock, { auth });
    await started(e);
    // The session changed and auth-js's refresh hangs from now on (a phone asleep mid-request): the
    // next pull and push ask the gate first (R1.12) and wait there.
    hang = true;
    for (const fn of listeners) fn();
    const before = asked;
    const calls = server.calls.length;
    await e.commands.sendMessage({ conversationId: conv.id, text: 'za bránou' });
    e.syncNow();
    await waitFor(() => asked >= before + 2, 'a pull and a push wait for the gate');
    expect(await stopAndCountMoves(e, c)).toBe(0);
    expect(server.calls.slice(calls)).toEqual([]); // nothing went out
  });

  it('R9.13 a request on the wire is waited for: stop() resolves as soon as it is answered, before the grace ends', async () => {
    const c = heldClock();
    const conv = server.addConversation();
    const api = server.api();
    let answer: (() => void) | null = null;
    const held: ServerApi = {
      ...api,
      sendMessage: (input) =>
        new Promise((resolve, reject) => {
          answer = () => void api.sendMessage(input).then(resolve, reject);
        }),
    };
    const e = engine(c.clock, { api: held });
    await started(e);
    await e.commands.sendMessage({ conversationId: conv.id, text: 'na drôte' });
    await waitFor(() => answer !== null, 'the send request is on the wire');
    let done = false;
    const stopped = e.stop().then(() => (done = true));
    for (let turn = 0; turn < 100; turn++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(false); // still waiting for the reply
    answer!();
    await stopped;
    expect(c.moved()).toBe(0); // the reply ended the wait, not the grace
    expect([...server.messages.values()].map((m) => m.text)).toEqual(['na drôte']);
  });

  it('R9.13 a request whose reply never comes holds stop() only until the grace ends', async () => {
    const c = heldClock();
    const conv = server.addConversation();
    let onWire = false;
    const api: ServerApi = {
      ...server.api(),
      sendMessage: () => {
        onWire = true;
        return new Promise(() => undefined);
      },
    };
    const e = engine(c.clock, { api });
    await started(e);
    await e.commands.sendMessage({ conversationId: conv.id, text: 'do čiernej diery' });
    await waitFor(() => onWire, 'the send request is on the wire');
    expect(await stopAndCountMoves(e, c)).toBe(1);
  });
});

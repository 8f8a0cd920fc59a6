// R6.5/R6.6/R6.8: what the engine hands an open chat besides IndexedDB. A realtime message is handed
// over from the event (`arriving`, before its write), its committed row after the write (`stored`,
// with a generation the live reads compare against), then the arriving copy is settled. Another
// device's relayed send is handed over as an arriving copy too, settled after RELAY_HOLD_MS (by then
// its stored row has normally replaced it). Also the marks of the bench's receive hops (marks.ts).
import type { SyncDb } from '../db/schema.ts';
import { arrivingMessage, handleTransportEvent, type EventOutcome } from './events.ts';
import { relayedMessage } from './relayed.ts';
import type { LocalMessage, StoredMessages } from '../model/local-types.ts';
import { syncMark } from '../marks.ts';
import type { TransportEvent } from '../transports/transport.ts';

export type Arriving = { row: LocalMessage } | { settled: string };

export interface Publications {
  /** The machine's onEvent: stores the event, publishing around the write. */
  onEvent: (e: TransportEvent) => Promise<EventOutcome>;
  subscribeStored: (fn: (stored: StoredMessages, generation: number) => void) => () => void;
  storedGeneration: () => number;
  subscribeArriving: (fn: (a: Arriving) => void) => () => void;
  /** R6.8: another device's relayed send (unchecked payload): handed over as a transient copy. */
  onRelayed: (payload: unknown) => void;
  /** Drops the relayed copies' timers (engine stop). */
  dispose: () => void;
}

/**
 * R6.8: how long another device's relayed send is shown before it is dropped unless its stored row
 * came (which replaces it at once: same key, and a stored row always wins over the copy's change
 * number 0). Long enough for a send on a slow network; short enough that a send that failed on the
 * other device does not stay on this one.
 */
export const RELAY_HOLD_MS = 15_000;

export interface PublicationDeps {
  db: SyncDb;
  userId: string;
  accountId: () => string | null;
  now: () => number;
  /** The engine's clock's timers (tests drive them). */
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export function createPublications(deps: PublicationDeps): Publications {
  const { db, userId } = deps;
  const storedListeners = new Set<(stored: StoredMessages, generation: number) => void>();
  let generation = 0;
  /** After the commit (the event's transaction has resolved): R6.5. */
  const publishStored = (stored: StoredMessages | undefined) => {
    if (!stored || (stored.put.length === 0 && stored.removed.length === 0)) return;
    generation++;
    for (const fn of storedListeners) fn(stored, generation);
  };
  const arrivingListeners = new Set<(a: Arriving) => void>();
  const relayTimers = new Set<unknown>();
  let disposed = false;
  const publishArriving = (a: Arriving) => {
    for (const fn of arrivingListeners) fn(a);
  };
  return {
    onEvent(e) {
      const arriving = arrivingMessage(e, deps.accountId(), userId);
      // The write's transaction is asked for first, then the copy is handed over: a transaction a view
      // asks for on seeing it (the open chat's markRead; it may render and run its effects within this
      // call) is created after the write's — Dexie creates explicit transactions a microtask after they
      // are asked for, in that order — so IndexedDB runs it after the write (arriving.test.ts).
      const written = handleTransportEvent(db, userId, e, deps.now());
      if (arriving) {
        publishArriving({ row: arriving });
        syncMark('poradna:recv:event', { id: arriving.serverId ?? arriving.key });
      }
      // Settled after the stored row's publication, so a view replaces the copy rather than losing it.
      const settle = () => arriving && publishArriving({ settled: arriving.key });
      return written.then(
        (outcome) => {
          if (e.kind === 'row') for (const m of outcome.stored?.put ?? []) if (m.serverId) syncMark('poradna:recv:stored', { id: m.serverId });
          publishStored(outcome.stored);
          settle();
          return outcome;
        },
        (err: unknown) => {
          settle();
          throw err;
        },
      );
    },
    subscribeStored(fn) {
      storedListeners.add(fn);
      return () => void storedListeners.delete(fn);
    },
    storedGeneration: () => generation,
    subscribeArriving(fn) {
      arrivingListeners.add(fn);
      return () => void arrivingListeners.delete(fn);
    },
    onRelayed(payload) {
      // A broadcast landing while the engine stops starts no timer that would outlive it.
      if (disposed) return;
      const row = relayedMessage(payload, deps.accountId(), userId);
      if (!row) return;
      publishArriving({ row });
      syncMark('poradna:recv:relay', { correlationId: row.correlationId ?? row.key });
      const timer = deps.setTimeout(() => {
        relayTimers.delete(timer);
        publishArriving({ settled: row.key });
      }, RELAY_HOLD_MS);
      relayTimers.add(timer);
    },
    dispose() {
      disposed = true;
      for (const t of relayTimers) deps.clearTimeout(t);
      relayTimers.clear();
    },
  };
}

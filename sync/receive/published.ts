// R6.5/R6.6/R6.8: what the engine hands an open chat besides IndexedDB. A realtime message is handed
// over from the event (`arriving`, before its write), its committed row after the write (`stored`,
// with a generation the live reads compare against), then the arriving copy is settled. Another
// device's relayed send is handed over as an arriving copy too, settled when that device withdraws it
// (the server refused it) or after RELAY_HOLD_MS (by then its stored row has normally replaced it).
// Also the marks of the bench's receive hops (marks.ts).
import type { SyncDb } from '../db/schema.ts';
import { arrivingMessage, handleTransportEvent, type EventOutcome } from './events.ts';
import { relayedMessage, withdrawnKey } from './relayed.ts';
import type { LocalMessage, StoredMessages } from '../model/local-types.ts';
import { syncMark } from '../marks.ts';
import type { TransportEvent } from '../transports/transport.ts';

/**
 * `settled` without a generation: drop the copy now (its stored row replaced it, its write failed, a
 * relayed send was withdrawn or held long enough). With one (R6.6): its write stored nothing, the row
 * was there already; keep the copy as a publication of that generation.
 */
export type Arriving = { row: LocalMessage } | { settled: string; generation?: number };

export interface Publications {
  /** The machine's onEvent: stores the event, publishing around the write. */
  onEvent: (e: TransportEvent) => Promise<EventOutcome>;
  subscribeStored: (fn: (stored: StoredMessages, generation: number) => void) => () => void;
  storedGeneration: () => number;
  subscribeArriving: (fn: (a: Arriving) => void) => () => void;
  /** R6.8: another device's relayed send (unchecked payload): handed over as a transient copy. */
  onRelayed: (payload: unknown) => void;
  /** R6.8: another device withdrew its relayed send (unchecked payload): its copy is settled now. */
  onWithdrawn: (payload: unknown) => void;
  /** Drops the relayed copies' timers (engine stop). */
  dispose: () => void;
}

/**
 * R6.8: how long another device's relayed send is shown before it is dropped unless its stored row
 * came (which replaces it at once: same key, and a stored row always wins over the copy's change
 * number 0) or its sender withdrew it. Long enough for a send on a slow network; short enough that a
 * send whose outcome never reaches this device (the sender went offline or closed) does not stay.
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
  /** The relayed copies shown now: key → the timer that settles it. */
  const relayTimers = new Map<string, unknown>();
  const settleRelayed = (key: string) => {
    if (!relayTimers.has(key)) return;
    deps.clearTimeout(relayTimers.get(key));
    relayTimers.delete(key);
    publishArriving({ settled: key });
  };
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
      // A write that stored nothing under the copy's key found the row stored already (the own
      // send's answer, R1.1, usually beats its realtime echo), by a write no publication told the view
      // of: its last read may be older than that write (the re-read is still out), and dropping the
      // copy would show that read's version — the own message 'sending' again after 'sent'. Such a
      // copy, once a row as new is seen stored under its key (one read, after the commit), is settled
      // with a generation of its own instead: the view keeps it as a publication until a read that
      // started after this has answered (nextRecent), which has that row. Anything else (nothing
      // stored there: a write that skipped it) drops it as before.
      const settle = async (stored: StoredMessages | undefined): Promise<void> => {
        if (!arriving) return;
        if (stored !== undefined && !stored.put.some((m) => m.key === arriving.key)) {
          const there = await db.messages.get(arriving.key).catch(() => undefined);
          if (there && there.changeSeq >= arriving.changeSeq) return publishArriving({ settled: arriving.key, generation: ++generation });
        }
        publishArriving({ settled: arriving.key });
      };
      return written.then(
        async (outcome) => {
          if (e.kind === 'row') for (const m of outcome.stored?.put ?? []) if (m.serverId) syncMark('poradna:recv:stored', { id: m.serverId });
          publishStored(outcome.stored);
          await settle(outcome.stored ?? { put: [], removed: [] });
          return outcome;
        },
        async (err: unknown) => {
          await settle(undefined);
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
      // A copy relayed again (the sender retried it) replaces the one shown, under the same key.
      if (relayTimers.has(row.key)) deps.clearTimeout(relayTimers.get(row.key));
      publishArriving({ row });
      syncMark('poradna:recv:relay', { correlationId: row.correlationId ?? row.key });
      relayTimers.set(row.key, deps.setTimeout(() => settleRelayed(row.key), RELAY_HOLD_MS));
    },
    onWithdrawn(payload) {
      if (disposed) return;
      const key = withdrawnKey(payload, deps.accountId());
      // Only a copy this engine shows: a withdrawal never touches a stored row or a copy of its own.
      if (key !== null) settleRelayed(key);
    },
    dispose() {
      disposed = true;
      for (const t of relayTimers.values()) deps.clearTimeout(t);
      relayTimers.clear();
    },
  };
}

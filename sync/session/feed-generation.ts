// R9.18/R9.20: how many times a database connection's feed changed identity (a reset for R5.7/R9.7,
// or a first identity adopted over rows of unknown origin), counted in memory. A send records it when
// its request leaves and a realtime channel when it joins; what they bring back under another count
// may belong to the database before a restore and is not stored as it is (push.ts, apply.ts).
// Invariant: a writer compares the count inside its own write transaction, after that transaction's
// first read (when it runs, not when it is asked for); a change of identity is counted before its
// transaction is asked for (resetFeed) or inside it (adoptFeedIdentity). IndexedDB runs overlapping
// read-write transactions one at a time, so each writer is wholly before or after the change.
import type { SyncDb } from '../db/schema.ts';

const counts = new WeakMap<SyncDb, number>();

export function feedGeneration(db: SyncDb): number {
  return counts.get(db) ?? 0;
}

export function countFeedChange(db: SyncDb): void {
  counts.set(db, feedGeneration(db) + 1);
}

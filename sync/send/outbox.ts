// R1: the outbox. Commands queue entries in the same transaction as their local change; push.ts
// sends them. Entries coalesce by key (one archive state and one read cursor per conversation), and a
// revision number tells a response for an older value apart from the current one (R1.9).
import type { Timings } from '../model/constants.ts';
import type { SyncDb } from '../db/schema.ts';
import type { JsonObject } from '../model/json.ts';

export type OutboxOp =
  | {
      kind: 'send';
      conversationId: string;
      correlationId: string;
      messageKey: string;
      text: string;
      payload: JsonObject | null;
      /** R9.8: the account the conversation belongs to, when known; sent only while acting in it. */
      accountId?: string | null;
    }
  | { kind: 'archive'; conversationId: string; archivedAt: string | null }
  | { kind: 'read'; conversationId: string; messageId: string }
  | {
      kind: 'start';
      requestId: string;
      specialistId: string;
      cardId: string | null;
      welcomeText: string | null;
      /** request-specialist: the message to send once the conversation exists. */
      thenSend: { correlationId: string; text: string } | null;
    }
  | { kind: 'ensure-first'; requestId: string };

export interface OutboxEntry {
  seq?: number;
  key: string;
  op: OutboxOp;
  /** Bumped whenever a coalescing command replaces `op`. */
  rev: number;
  /** Transient failures so far: the back-off grows with them, also across restarts. */
  attempts: number;
  /** Wall-clock time the entry was queued (information only: nothing waits on it, R9.6). */
  createdAt: number;
  lastError: string | null;
  /**
   * R9.10: the engine pushing this entry now and until when (its request timeout plus a margin), so
   * a second engine on the same database (two tabs without Web Locks) does not push it as well.
   */
  claim?: { by: string; until: number } | null;
}

/** The outbox key of the send with this (lower-case) correlation id. */
export function sendKey(correlationId: string): string {
  return `send:${correlationId}`;
}

export function outboxKey(op: OutboxOp): string {
  switch (op.kind) {
    case 'send':
      return sendKey(op.correlationId);
    case 'archive':
      return `archive:${op.conversationId}`;
    case 'read':
      return `read:${op.conversationId}`;
    case 'start':
    case 'ensure-first':
      return `${op.kind}:${op.requestId}`;
  }
}

/**
 * Queues `op` (inside the caller's transaction); an entry with the same key takes the new value.
 * Returns the entry as stored. `claim` (R1.12): the entry is written already claimed by the engine
 * whose request for it started inside this transaction (R9.10 holds from the commit on).
 */
export async function queue(db: SyncDb, op: OutboxOp, now: number, claim?: OutboxEntry['claim']): Promise<OutboxEntry> {
  const key = outboxKey(op);
  const existing = await db.outbox.where('key').equals(key).first();
  if (existing?.seq !== undefined) {
    // A new revision is due at once: the retry schedule holds only for the revision it was made for.
    const changes = { op, rev: existing.rev + 1, attempts: 0, lastError: null, ...(claim ? { claim } : {}) };
    await db.outbox.update(existing.seq, changes);
    return { ...existing, ...changes };
  }
  const entry: OutboxEntry = { key, op, rev: 0, attempts: 0, createdAt: now, lastError: null, ...(claim ? { claim } : {}) };
  const seq = await db.outbox.add(entry);
  return seq === undefined ? entry : { ...entry, seq };
}

/**
 * R9.15: sends the server has stored — their rows reached this device by realtime, a pull or a reply
 * — are no longer queued: their entries go at once (inside the caller's transaction), whatever
 * request for them is still out. That request's outcome then finds no entry and only merges its row
 * again (push.ts `settle`), and the next send of the conversation is no longer held behind it (R1.8)
 * until its timeout. `correlationIds` must be the user's own sends' (another member's row never
 * settles this user's entry).
 */
export async function settleStoredSends(db: SyncDb, correlationIds: string[]): Promise<void> {
  if (correlationIds.length === 0) return;
  const seqs = await db.outbox
    .where('key')
    .anyOf(correlationIds.map((c) => sendKey(c.toLowerCase())))
    .primaryKeys();
  if (seqs.length) await db.outbox.bulkDelete(seqs);
}

/** R1.3: delay before attempt `attempts + 1` after `attempts` transient failures. */
export function retryDelay(attempts: number, t: Pick<Timings, 'retryStartMs' | 'retryFactor' | 'retryMaxMs'>): number {
  return Math.min(t.retryStartMs * t.retryFactor ** Math.max(0, attempts - 1), t.retryMaxMs);
}

export interface DuePlan {
  due: OutboxEntry[];
  /** When (on the schedule's monotonic time) the earliest entry not due now becomes due; null when none waits. */
  nextDueAt: number | null;
}

/**
 * R9.6: when each entry's next attempt is due, on the engine's monotonic clock (clock.ts), kept in
 * memory only. Nothing about it is persisted: a wall-clock deadline in IndexedDB would park the
 * entry for as long as the clock was wrong (a phone 2 h ahead while queueing, then corrected), and a
 * monotonic one means nothing after a restart. After a restart every entry is due at once; its stored
 * `attempts` still lengthens the back-off of the next failure. A retry is scheduled for one revision:
 * an entry replaced since (R1.9) is due at once.
 */
export class RetrySchedule {
  private readonly at = new Map<number, { rev: number; due: number }>();

  set(entry: Pick<OutboxEntry, 'seq' | 'rev'>, due: number): void {
    if (entry.seq !== undefined) this.at.set(entry.seq, { rev: entry.rev, due });
  }

  /** The monotonic time the entry is due at; -Infinity when it is due at once. */
  dueAt(entry: Pick<OutboxEntry, 'seq' | 'rev'>): number {
    const s = entry.seq === undefined ? undefined : this.at.get(entry.seq);
    return s && s.rev === entry.rev ? s.due : -Infinity;
  }

  /** Forgets entries that are gone (settled), so the map stays the size of the outbox. */
  keepOnly(seqs: Iterable<number>): void {
    const live = new Set(seqs);
    for (const seq of this.at.keys()) if (!live.has(seq)) this.at.delete(seq);
  }

  /** Everything due at once (the network came back: earlier back-off no longer applies). */
  clear(): void {
    this.at.clear();
  }
}

/**
 * R1.8: entries in queue order; a send waits while an earlier send of the same conversation is
 * queued, so messages reach the server in the order they were typed. `now` is the schedule's
 * monotonic time (R9.6).
 */
export function pickDue(entries: OutboxEntry[], now: number, schedule: RetrySchedule = new RetrySchedule()): DuePlan {
  const sorted = [...entries].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const sendsAhead = new Set<string>();
  const due: OutboxEntry[] = [];
  let nextDueAt: number | null = null;
  for (const e of sorted) {
    const blocked = e.op.kind === 'send' && sendsAhead.has(e.op.conversationId);
    if (e.op.kind === 'send') sendsAhead.add(e.op.conversationId);
    if (blocked) continue;
    const at = schedule.dueAt(e);
    if (at <= now) due.push(e);
    else nextDueAt = nextDueAt === null ? at : Math.min(nextDueAt, at);
  }
  return { due, nextDueAt };
}

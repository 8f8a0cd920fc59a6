// Sends the outbox (R1.3–R1.10). One entry at a time in queue order; each outcome is written in one
// transaction: success merges the server's reply and removes the entry (unless a newer value replaced
// it meanwhile, R1.9), a permanent refusal fails or reverts, a transient failure schedules a retry.
import { applyRemoteChanges } from '../receive/apply.ts';
import type { Timings } from '../model/constants.ts';
import type { SyncDb } from '../db/schema.ts';
import { revertArchive } from '../merge/conversation.ts';
import { revertCursor } from '../merge/read-cursor.ts';
import { pickDue, queue, retryDelay, RetrySchedule, type OutboxEntry, type OutboxOp } from './outbox.ts';
import { optimisticMessage } from '../merge/message.ts';
import { timestampFromMs } from '../model/timestamps.ts';
import { errorText, isTransient, ServerError, type SendResult, type ServerApi } from '../server/api.ts';
import { syncMark } from '../marks.ts';
import { otherAccountOf, toServerError } from '../server/classify.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import { TEXT_CONVERSATION_COMPLETED, TEXT_CONVERSATION_GONE, TEXT_REQUEST_FAILED, TEXT_SEND_FAILED, TEXT_START_FAILED } from '../model/texts.ts';
import { writeOptimisticMessage } from './optimistic-message.ts';
import { feedGeneration } from '../session/feed-generation.ts';

export interface PushDeps {
  db: SyncDb;
  server: ServerApi;
  userId: string;
  now: () => number;
  /** R9.6: the monotonic time retries are scheduled on (default: `now`). */
  monotonic?: () => number;
  /** R9.6: the engine's in-memory retry schedule; without one every entry is due at each flush. */
  schedule?: RetrySchedule;
  timings: Pick<Timings, 'retryStartMs' | 'retryFactor' | 'retryMaxMs'>;
  /** A start created a conversation the feed has not brought yet. */
  onPullNeeded: () => void;
  /** R9.4: entries on the wire at once (default 1). */
  lanes?: number;
  /** R9.8: the account acted in now; sends queued in another account wait (never go out here). */
  accountId?: () => string | null;
  /** R9.10: this engine's id for claiming entries, and how long a claim holds; no claims without it. */
  claimer?: Claimer;
  /** R1.12: outbox keys whose request this engine started inside their write; never picked here. */
  busy?: ReadonlySet<string>;
  /** R1.12 (send-watch.ts): runs a write that queues a send of a conversation not announced beforehand. */
  opaqueSends?: <T>(write: () => Promise<T>) => Promise<T>;
  /** R6.8: the server refused this send for good and it is stored as failed (the relay withdraws it). */
  onSendRefused?: (correlationId: string) => void;
}

/** R9.10: who claims outbox entries, for how long, and (R9.14) whether it alone may push now. */
export interface Claimer {
  id: string;
  holdMs: number;
  /**
   * R9.14: true while this engine holds the leader's Web Lock. Only the leader pushes (the flush and
   * the early request both need it), and the lock is granted only once the previous holder's context
   * is gone or let go of it, so a claim of another engine is then a dead one: ignored at once rather
   * than honoured until it runs out (a killed leader's 20 s). A request the old leader left on the
   * wire and this one pushes again is answered with the stored row (R1.5).
   */
  exclusive?: () => boolean;
}

/**
 * R9.10: claims the entry for this engine in one transaction (IndexedDB serialises them across
 * tabs); null when another engine holds a live claim. A claim further ahead than it can be came from
 * a clock since set back and is ignored (R9.6), as is every other engine's claim while this one
 * holds the leader's lock (R9.14). Returns the entry as stored now (its latest value).
 */
async function claimEntry(d: PushDeps, entry: OutboxEntry): Promise<OutboxEntry | null> {
  const c = d.claimer;
  if (!c || entry.seq === undefined) return entry;
  const seq = entry.seq;
  return d.db.transaction('rw', d.db.outbox, async () => {
    const current = await d.db.outbox.get(seq);
    if (!current) return null;
    const now = d.now();
    const held = current.claim;
    if (held && held.by !== c.id && held.until > now && held.until <= now + 2 * c.holdMs && !c.exclusive?.()) return null;
    const claim = { by: c.id, until: now + c.holdMs };
    await d.db.outbox.update(seq, { claim });
    return { ...current, claim };
  });
}

/** R9.8: entries this engine may push while acting in its current account. */
async function pushable(d: PushDeps): Promise<OutboxEntry[]> {
  const all = await d.db.outbox.toArray();
  const acting = d.accountId?.() ?? null;
  if (acting === null) return all;
  return all.filter((e) => e.op.kind !== 'send' || !e.op.accountId || e.op.accountId === acting);
}

function mono(d: PushDeps): number {
  return (d.monotonic ?? d.now)();
}

export interface FlushResult {
  pushed: number;
  /** On the monotonic clock (R9.6); null when nothing waits. */
  nextDueAt: number | null;
}

type Op<K extends OutboxOp['kind']> = Extract<OutboxOp, { kind: K }>;

/** Removes the entry if it still holds the value that was sent; true when removed. */
async function settle(db: SyncDb, entry: OutboxEntry): Promise<boolean> {
  return entry.seq === undefined ? false : settleAsRead(db, entry, await db.outbox.get(entry.seq));
}

/** settle() with the entry's stored value already read in this transaction (`current`). */
async function settleAsRead(db: SyncDb, entry: OutboxEntry, current: OutboxEntry | undefined): Promise<boolean> {
  if (entry.seq === undefined || !current || current.rev !== entry.rev) return false;
  await db.outbox.delete(entry.seq);
  return true;
}

/** A send's request (from the flush or, R1.12, from inside its write); marks when it goes out (bench/README.md). */
export function requestSend(d: Pick<PushDeps, 'server'>, op: Op<'send'>, viaChatwoot: boolean): Promise<SendResult> {
  syncMark('poradna:send:request', { correlationId: op.correlationId });
  return d.server.sendMessage({ conversationId: op.conversationId, text: op.text, correlationId: op.correlationId, payload: op.payload, viaChatwoot });
}

async function onSend(d: PushDeps, entry: OutboxEntry, op: Op<'send'>): Promise<void> {
  const conversation = await d.db.conversations.get(op.conversationId);
  const since = feedGeneration(d.db);
  await storeSent(d, entry, op, await requestSend(d, op, Boolean(conversation?.chatwootConversationId)), since);
}

/**
 * R9.18: the answer of a send whose request left before a feed reset (R9.7: a backup restored on the
 * server). Its row may be one the restore took away, so storing it would show the message sent while
 * the server lost it. Transient: the entry stays and goes again under its correlation id, answered
 * with the stored row if it survived (R1.5), stored anew if not.
 */
export class AnsweredBeforeResetError extends ServerError {
  constructor() {
    super('transient', 'send answered before a feed reset', null);
  }
}

/**
 * The server took the send: the entry goes, its reply replaces the optimistic copy (R2.4). `since` is
 * the feed generation when the request left (R9.18).
 */
async function storeSent(d: PushDeps, entry: OutboxEntry, op: Op<'send'>, res: SendResult, since: number): Promise<void> {
  const stale = await d.db.transaction('rw', d.db.syncTables, async () => {
    const current = entry.seq === undefined ? undefined : await d.db.outbox.get(entry.seq);
    // Judged after the transaction's first read, when it runs (feed-generation.ts): a first identity
    // adopted in a transaction of its own (R9.20) is then wholly before or after this one.
    if (feedGeneration(d.db) !== since) {
      await keepQueued(d, entry, op, current);
      return true;
    }
    await settleAsRead(d.db, entry, current);
    if ('row' in res) {
      await applyRemoteChanges(d.db, { messages: [res.row] }, d.userId);
    } else {
      const m = await d.db.messages.get(op.messageKey);
      if (m && m.serverId === null) await d.db.messages.put({ ...m, state: 'sent', confirmedAt: d.now() });
    }
    return false;
  });
  // Thrown after the commit: keepQueued's writes must stay.
  if (stale) throw new AnsweredBeforeResetError();
}

/**
 * R9.18: an answer from before a feed reset. The send must go again, but its entry may be gone
 * already: its row reached the device (R9.15 settles the entry) before the reset cleared that row
 * with the synced ones, or a stale realtime row arrived after it. Then the entry is queued anew and
 * the message is shown sending again (written anew if the reset took it), so what the user typed
 * is never lost to a restore that raced its answer (the hostile fuzz's seed 7, and R9.18's test
 * under load).
 */
async function keepQueued(d: PushDeps, entry: OutboxEntry, op: Op<'send'>, current: OutboxEntry | undefined): Promise<void> {
  if (current) return; // still queued: retried as any transient failure
  await queue(d.db, op, d.now());
  const m = await d.db.messages.get(op.messageKey);
  if (m) {
    if (m.serverId !== null || m.state === 'sent') await d.db.messages.put({ ...m, serverId: null, state: 'sending', confirmedAt: null, changeSeq: 0, error: null });
  } else {
    const written = op.payload?.['written_at'];
    const createdAt = typeof written === 'string' ? written : timestampFromMs(d.now());
    await d.db.messages.put(optimisticMessage({ conversationId: op.conversationId, accountId: op.accountId ?? null, text: op.text, correlationId: op.correlationId, createdAt, payload: op.payload, userId: d.userId }));
  }
  await refreshSummaries(d.db, [op.conversationId]);
}

async function onArchive(d: PushDeps, entry: OutboxEntry, op: Op<'archive'>): Promise<void> {
  const row = await d.server.setArchived(op.conversationId, op.archivedAt);
  await d.db.transaction('rw', d.db.syncTables, async () => {
    if (await settle(d.db, entry)) {
      const c = await d.db.conversations.get(op.conversationId);
      // R2.2: no longer queued, so the server's value shows. A newer version than the reply (another
      // device's archive that reached us while this was on the wire) is already the stored server
      // value, and the reply below is merged only when it is newer than that (the fuzz's seed 152:
      // keeping the local value left the device unarchived for good while the server was archived).
      if (c) await d.db.conversations.put(row ? revertArchive(c) : { ...c, pendingArchive: 0 });
    }
    if (row) await applyRemoteChanges(d.db, { conversations: [row] }, d.userId);
  });
}

async function onRead(d: PushDeps, entry: OutboxEntry, op: Op<'read'>): Promise<void> {
  const row = await d.server.markRead(op.conversationId, op.messageId);
  await d.db.transaction('rw', d.db.syncTables, async () => {
    if (await settle(d.db, entry)) {
      const c = await d.db.readCursors.get(op.conversationId);
      if (c && c.messageId === op.messageId) await d.db.readCursors.put({ ...c, pending: 0 });
    }
    if (row) await applyRemoteChanges(d.db, { readCursors: [row] }, d.userId);
  });
}

async function onStart(d: PushDeps, entry: OutboxEntry, op: Op<'start'> | Op<'ensure-first'>): Promise<void> {
  const res =
    op.kind === 'start'
      ? await d.server.startConversation({ specialistId: op.specialistId, cardId: op.cardId, welcomeText: op.welcomeText })
      : await d.server.ensureFirstConversation();
  const write = () =>
    d.db.transaction('rw', d.db.syncTables, async () => {
      await settle(d.db, entry);
      await d.db.results.put({ id: op.requestId, ok: true, conversationId: res.conversation_id, created: res.created, error: null, at: d.now() });
      if (op.kind === 'start' && op.thenSend) {
        await writeOptimisticMessage(d.db, {
          conversationId: res.conversation_id,
          text: op.thenSend.text,
          correlationId: op.thenSend.correlationId,
          payload: null,
          userId: d.userId,
          now: d.now(),
        });
      }
    });
  await (op.kind === 'start' && op.thenSend && d.opaqueSends ? d.opaqueSends(write) : write());
  d.onPullNeeded();
}

/** R9.3: the user reads why in Slovak when the reason is known; otherwise the server's words (R1.4). */
export function sendFailureText(err: unknown): string {
  if (err instanceof ServerError) {
    if (err.status === 404 || err.message === 'Conversation not found') return TEXT_CONVERSATION_GONE;
    if (err.message === 'Conversation is completed') return TEXT_CONVERSATION_COMPLETED;
  }
  return errorText(err, TEXT_SEND_FAILED);
}

/** R1.4/R1.6/R1.7/R1.10: the server said no for good. */
async function onRefused(d: PushDeps, entry: OutboxEntry, err: unknown): Promise<void> {
  const op = entry.op;
  let failedSend = false;
  await d.db.transaction('rw', d.db.syncTables, async () => {
    if (!(await settle(d.db, entry))) return;
    if (op.kind === 'send') {
      const m = await d.db.messages.get(op.messageKey);
      if (m && m.state === 'sending') {
        await d.db.messages.put({ ...m, state: 'failed', error: sendFailureText(err) });
        failedSend = true;
      }
    } else if (op.kind === 'archive') {
      const c = await d.db.conversations.get(op.conversationId);
      if (c) await d.db.conversations.put(revertArchive(c));
    } else if (op.kind === 'read') {
      const c = await d.db.readCursors.get(op.conversationId);
      if (c) await d.db.readCursors.put(revertCursor(c));
      await refreshSummaries(d.db, [op.conversationId]);
    } else {
      const text = op.kind === 'start' && op.thenSend ? TEXT_REQUEST_FAILED : TEXT_START_FAILED;
      await d.db.results.put({ id: op.requestId, ok: false, conversationId: null, created: null, error: text, at: d.now() });
    }
  });
  // After the commit: the other devices drop their copy only once this one shows the failure.
  if (failedSend && op.kind === 'send') d.onSendRefused?.(op.correlationId);
}

async function onTransient(d: PushDeps, entry: OutboxEntry, err: unknown): Promise<void> {
  if (entry.seq === undefined) return;
  const seq = entry.seq;
  await d.db.transaction('rw', d.db.outbox, async () => {
    const current = await d.db.outbox.get(seq);
    if (!current) return;
    const attempts = current.attempts + 1;
    // R9.8: the server named the conversation's account (an entry written before its conversation
    // was synced had none): from now on the entry waits for the engine to act there.
    const elsewhere = current.op.kind === 'send' ? otherAccountOf(err) : null;
    const op = elsewhere && current.op.kind === 'send' ? { ...current.op, accountId: elsewhere } : current.op;
    await d.db.outbox.update(seq, { op, attempts, lastError: errorText(err, 'network error'), claim: null });
    // R9.6: the retry waits on the monotonic clock, in memory; nothing of it is stored.
    d.schedule?.set(current, mono(d) + retryDelay(attempts, d.timings));
  });
}

/** Runs an entry's push; a failure is stored as a retry (transient) or a refusal. True when it went through. */
async function outcomeOf(d: PushDeps, entry: OutboxEntry, push: () => Promise<void>): Promise<boolean> {
  try {
    await push();
    return true;
  } catch (err) {
    const e = toServerError(err);
    if (isTransient(e)) await onTransient(d, entry, e);
    else await onRefused(d, entry, e);
    return false;
  }
}

async function pushOne(d: PushDeps, entry: OutboxEntry): Promise<boolean> {
  const op = entry.op;
  return outcomeOf(d, entry, async () => {
    if (op.kind === 'send') await onSend(d, entry, op);
    else if (op.kind === 'archive') await onArchive(d, entry, op);
    else if (op.kind === 'read') await onRead(d, entry, op);
    else await onStart(d, entry, op);
  });
}

/**
 * R1.12: the outcome of a send whose request started inside its write transaction. Stored only once
 * that transaction committed (`stored` gives the entry it wrote), exactly as the flush would store it;
 * when the write failed (null) nothing is stored (the server, if it took the message, brings it
 * through the feed).
 */
export async function finishEarlySend(d: PushDeps, op: Op<'send'>, request: Promise<SendResult>, stored: Promise<OutboxEntry | null>, since: number): Promise<boolean> {
  void request.catch(() => undefined); // handled below, once the write has committed
  const entry = await stored;
  if (!entry) return false;
  return outcomeOf(d, entry, async () => storeSent(d, entry, op, await request, since));
}

const MAX_PICKS = 1000;

/**
 * Pushes every due entry; returns when the queue holds nothing due. R9.4: up to `lanes` entries are
 * on the wire at once, and a lane that frees up takes the next due entry at once, so one request
 * waiting for its timeout never holds up the other conversations. An entry on the wire still counts
 * for pickDue, so the next send of its conversation waits for it (R1.8).
 */
export async function flushOutbox(d: PushDeps): Promise<FlushResult> {
  const lanes = Math.max(1, d.lanes ?? 1);
  const schedule = d.schedule ?? new RetrySchedule();
  const running = new Map<number, Promise<void>>();
  // Tried and not pushed in this flush: its next attempt is the back-off's business, not this loop's.
  const tried = new Set<number>();
  let heldElsewhere = false;
  let pushed = 0;
  for (let picks = 0; picks < MAX_PICKS; ) {
    const entries = await pushable(d);
    schedule.keepOnly(entries.map((e) => e.seq ?? -1));
    const plan = pickDue(entries, mono(d), schedule);
    const ready = plan.due.filter((e) => e.seq !== undefined && !running.has(e.seq) && !tried.has(e.seq) && !d.busy?.has(e.key));
    if (ready.length === 0 && running.size === 0) {
      const retryNow = plan.due.some((e) => e.seq !== undefined && tried.has(e.seq));
      // Held by another engine: look again once its claim would have run out (it may have died).
      if (heldElsewhere && d.claimer) return { pushed, nextDueAt: mono(d) + d.claimer.holdMs };
      return { pushed, nextDueAt: retryNow ? mono(d) : plan.nextDueAt };
    }
    for (const entry of ready) {
      if (running.size >= lanes) break;
      picks++;
      const seq = entry.seq!;
      const done = claimEntry(d, entry)
        .then(async (mine) => {
          if (!mine) {
            heldElsewhere = true;
            tried.add(seq);
            return;
          }
          // No release afterwards: success and refusal remove the entry, a transient failure clears
          // the claim with its back-off (onTransient), and an entry replaced meanwhile (R1.9) stays
          // ours to push next.
          if (await pushOne(d, mine)) pushed++;
          else tried.add(seq);
        })
        .finally(() => running.delete(seq));
      running.set(seq, done);
    }
    await Promise.race(running.values());
  }
  await Promise.all(running.values());
  const plan = pickDue(await pushable(d), mono(d), schedule);
  return { pushed, nextDueAt: plan.due.length ? mono(d) : plan.nextDueAt };
}

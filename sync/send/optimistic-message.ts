// The optimistic message and its send entry, written together (R1.1/R1.2). Runs inside the caller's
// transaction (a command's, or push.ts's when request-specialist's conversation has just been made).
// It lives with the send side, below commands/, so push.ts does not reach back up to a command; it
// also names what the early request (early-send.ts) is offered, so that module imports it, never
// the other way round (no import cycle).
import type { SyncDb } from '../db/schema.ts';
import type { JsonObject } from '../model/json.ts';
import type { LocalConversation, LocalMessage } from '../model/local-types.ts';
import { optimisticMessage } from '../merge/message.ts';
import { queue, type OutboxEntry, type OutboxOp } from './outbox.ts';
import { syncMark } from '../marks.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import { msFromTimestamp, timestampFromMs } from '../model/timestamps.ts';
import { withWrittenAt } from './written-at.ts';

export type SendOp = Extract<OutboxOp, { kind: 'send' }>;

export interface EarlyCandidate {
  op: SendOp;
  conversation: LocalConversation | undefined;
  /** The write's own read found a send of this conversation in the outbox (R1.8). */
  earlierSendQueued: boolean;
}

export interface EarlyStarted {
  claim: { by: string; until: number };
  /** The transaction that wrote `entry` committed: the outcome may be stored. */
  stored(entry: OutboxEntry): void;
  /** The transaction failed: nothing was stored, the outcome is dropped (the command throws). */
  failed(): void;
}

/** Offered every send inside its write transaction; null: queue it for the flush as before. */
export type EarlySend = (c: EarlyCandidate) => EarlyStarted | null;

export interface OptimisticInput {
  conversationId: string;
  text: string;
  correlationId: string;
  payload: JsonObject | null;
  userId: string;
  now: number;
  /** R1.2: write nothing (answer null) when the conversation is stored and not active. */
  onlyIfActive?: boolean;
  /** R1.12: offered the send once the write has read what it needs, to start its request before the commit. */
  early?: EarlySend | null;
  /** R1.12: the request already started before this transaction (the fast path); no outbox read, no offer. */
  started?: EarlyStarted | null;
  /** R12.3: write the message only; its send is queued once its attachments are uploaded (attachments/). */
  hold?: boolean;
}

export interface WrittenMessage {
  message: LocalMessage;
  /** R1.12: the request already started; told the entry once the caller's transaction committed. */
  early: EarlyStarted | null;
  /** null when `hold` (R12.3): nothing was queued. */
  entry: OutboxEntry | null;
}

/** A local time after every stored message of the conversation, so typed order is shown order. */
function nextLocalTime(last: LocalMessage | undefined, now: number): number {
  const lastMs = last ? msFromTimestamp(last.createdAt) : -Infinity;
  return Math.max(now, lastMs + 1);
}

/**
 * Writes the message, its outbox entry, the typing hint and the summary. Reads that do not depend on
 * each other are issued together (one round trip to the IndexedDB backend each time, not one per
 * read): on the in-transaction path the send's time to the request is mostly these round trips
 * (bench row 4c); the solo leader's request starts before them (R1.12).
 */
export async function writeOptimisticMessage(db: SyncDb, input: OptimisticInput): Promise<WrittenMessage | null> {
  const correlationId = input.correlationId.toLowerCase();
  syncMark('poradna:send:tx', { correlationId });
  const [last, conversation, outbox, clock] = await Promise.all([
    db.messages.where('[conversationId+orderKey]').between([input.conversationId, ''], [input.conversationId, '\uffff']).last(),
    db.conversations.get(input.conversationId),
    // R1.8: only to know whether an earlier send of this conversation is still queued (getAll: one round trip).
    input.early && !input.started ? db.outbox.toArray() : undefined,
    db.meta.get('clock'),
  ]);
  syncMark('poradna:send:reads', { correlationId });
  if (input.onlyIfActive && conversation && conversation.status !== 'active') return null;
  // R9.11: the message's time on the server's clock (the offset the engine learnt), so it sorts and
  // reads right on a device whose clock is off; the outbox and typing keep device time.
  const offsetMs = clock?.key === 'clock' ? clock.offsetMs : 0;
  const createdAt = timestampFromMs(nextLocalTime(last, input.now + offsetMs));
  const message = optimisticMessage({
    conversationId: input.conversationId,
    accountId: null,
    text: input.text,
    correlationId,
    createdAt,
    payload: input.payload,
    userId: input.userId,
  });
  const op: Extract<OutboxOp, { kind: 'send' }> = {
    kind: 'send',
    conversationId: input.conversationId,
    correlationId,
    messageKey: message.key,
    text: input.text,
    // R1.14: the send carries when it was written; the local copy keeps the caller's payload.
    payload: withWrittenAt(input.payload, createdAt),
    accountId: conversation?.accountId ?? null,
  };
  // R1.12: the request starts here, before the writes below are even issued; the outcome is stored
  // only after this transaction committed (the caller tells `early`), so invariant 1 holds.
  const earlierSendQueued = outbox?.some((e) => e.op.kind === 'send' && e.op.conversationId === input.conversationId) ?? true;
  const early = input.hold ? null : (input.started ?? input.early?.({ op, conversation, earlierSendQueued }) ?? null);
  const [, entry] = await Promise.all([
    db.messages.put(message),
    input.hold ? null : queue(db, op, input.now, early?.claim),
    conversation?.specialist?.isAi && !input.hold ? db.typing.put({ conversationId: input.conversationId, startedAt: input.now }) : undefined,
  ]);
  await refreshSummaries(db, [input.conversationId]);
  return { message, early, entry };
}

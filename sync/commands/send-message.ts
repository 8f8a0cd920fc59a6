// R1.2: sendMessage. Blank text is ignored, text is trimmed, a completed conversation takes no new
// message (user-area.md section 5); otherwise the message is stored as sending before this returns.
import type { JsonObject } from '../model/json.ts';
import type { EarlySend, EarlyStarted, SendOp } from '../send/early-send.ts';
import { correlationKey } from '../merge/message.ts';
import { outboxKey } from '../send/outbox.ts';
import { writeOptimisticMessage, type WrittenMessage } from '../send/optimistic-message.ts';
import type { CommandContext } from './context.ts';
import { syncMark } from '../marks.ts';
import { isUuid } from '../model/ids.ts';
import { clearSentDraft } from './draft.ts';

export interface SendMessageInput {
  conversationId: string;
  text: string;
  payload?: JsonObject | null;
  /** A UUID the caller chose (so a bubble shown before this returns has the stored copy's key); else a fresh one. */
  correlationId?: string;
}

export interface SentHandle {
  key: string;
  correlationId: string;
}

export async function sendMessage(ctx: CommandContext, input: SendMessageInput): Promise<SentHandle | null> {
  const text = input.text.trim();
  if (text === '') return null;
  if (input.correlationId !== undefined && !isUuid(input.correlationId)) throw new Error('correlationId must be a UUID');
  const { db } = ctx;
  const correlationId = input.correlationId ?? ctx.newId();
  syncMark('poradna:send:command', { correlationId: correlationId.toLowerCase() });
  // R1.13 (solo.ts): a follower writes a send only holding the writers lock.
  const gate = ctx.writeGate?.();
  if (gate) await gate;
  const lower = correlationId.toLowerCase();
  const op: SendOp = {
    kind: 'send',
    conversationId: input.conversationId,
    correlationId: lower,
    messageKey: correlationKey(lower),
    text,
    payload: input.payload ?? null,
    accountId: null,
  };
  // R1.12, all in this one synchronous step: the fast decision (the request starts here, before the
  // transaction), then the announcement that keeps a later send of this conversation behind this one,
  // then the transaction's creation (IndexedDB orders it after every transaction created before).
  const fast = ctx.fast?.(op) ?? null;
  // R6.8: the request went; the user's other devices hear of it now, not after the write.
  const relay = () => ctx.relay?.({ conversationId: op.conversationId, correlationId: lower, text, payload: op.payload });
  if (fast) relay();
  const announced = ctx.watch?.announce(op.conversationId, outboxKey(op));
  // Otherwise the request may start inside the transaction; it learns whether the write committed.
  let started: EarlyStarted | null = fast?.started ?? null;
  const offer = fast ? null : ctx.early;
  const early: EarlySend | null = offer ? (c) => (started = offer(c)) : null;
  let written: WrittenMessage | null;
  try {
    // R16.2: the drafts table joins the transaction, so the message and the end of its draft commit together.
    written = await db.transaction('rw', [...db.syncTables, db.drafts], async () => {
      const w = await writeOptimisticMessage(db, {
        conversationId: input.conversationId,
        text,
        correlationId,
        payload: input.payload ?? null,
        userId: ctx.userId,
        now: ctx.now(),
        onlyIfActive: true,
        early,
        started: fast?.started ?? null,
      });
      if (w) await clearSentDraft(db, input.conversationId, text);
      return w;
    });
  } catch (err) {
    announced?.settle(false);
    started?.failed();
    throw err;
  }
  announced?.settle(written !== null);
  if (!written) {
    // R1.2: the conversation is completed (the view thought it active): nothing stored; a request
    // that already went is refused by the server too (400), its outcome dropped.
    started?.failed();
    return null;
  }
  if (written.entry) written.early?.stored(written.entry);
  // The request started inside the transaction (R1.12): relayed once it is stored.
  if (!fast && started) relay();
  ctx.notify();
  return { key: written.message.key, correlationId: written.message.correlationId ?? '' };
}

// R1.2: sendMessage. Blank text is ignored, text is trimmed, a completed conversation takes no new
// message (user-area.md section 5); otherwise the message is stored as sending before this returns.
import type { JsonObject } from '../model/json.ts';
import type { EarlySend, EarlyStarted } from '../send/early-send.ts';
import { writeOptimisticMessage, type WrittenMessage } from './write-message.ts';
import type { CommandContext } from './context.ts';
import { syncMark } from '../marks.ts';

export interface SendMessageInput {
  conversationId: string;
  text: string;
  payload?: JsonObject | null;
  /** A UUID the caller chose (so a bubble shown before this returns has the stored copy's key); else a fresh one. */
  correlationId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SentHandle {
  key: string;
  correlationId: string;
}

export async function sendMessage(ctx: CommandContext, input: SendMessageInput): Promise<SentHandle | null> {
  const text = input.text.trim();
  if (text === '') return null;
  if (input.correlationId !== undefined && !UUID.test(input.correlationId)) throw new Error('correlationId must be a UUID');
  const { db } = ctx;
  const correlationId = input.correlationId ?? ctx.newId();
  syncMark('poradna:send:command', { correlationId: correlationId.toLowerCase() });
  // R1.12: the request may start inside the transaction; it learns whether the write committed.
  let started: EarlyStarted | null = null;
  const offer = ctx.early;
  const early: EarlySend | null = offer ? (c) => (started = offer(c)) : null;
  let written: WrittenMessage | null;
  try {
    written = await db.transaction('rw', db.syncTables, () =>
      writeOptimisticMessage(db, {
        conversationId: input.conversationId,
        text,
        correlationId,
        payload: input.payload ?? null,
        userId: ctx.userId,
        now: ctx.now(),
        onlyIfActive: true,
        early,
      }),
    );
  } catch (err) {
    (started as EarlyStarted | null)?.failed();
    throw err;
  }
  if (!written) return null;
  written.early?.stored(written.entry);
  ctx.notify();
  return { key: written.message.key, correlationId: written.message.correlationId ?? '' };
}

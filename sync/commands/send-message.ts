// R1.2: sendMessage. Blank text is ignored, text is trimmed, a completed conversation takes no new
// message (user-area.md section 5); otherwise the message is stored as sending before this returns.
import type { JsonObject } from '../json.ts';
import { writeOptimisticMessage } from './write-message.ts';
import type { CommandContext } from './context.ts';

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
  const handle = await db.transaction('rw', db.syncTables, async () => {
    const conversation = await db.conversations.get(input.conversationId);
    if (conversation && conversation.status !== 'active') return null;
    const m = await writeOptimisticMessage(db, {
      conversationId: input.conversationId,
      text,
      correlationId: input.correlationId ?? ctx.newId(),
      payload: input.payload ?? null,
      userId: ctx.userId,
      now: ctx.now(),
    });
    return { key: m.key, correlationId: m.correlationId ?? '' };
  });
  if (handle) ctx.notify();
  return handle;
}

// R1.2: sendMessage. Blank text is ignored, text is trimmed, a completed conversation takes no new
// message (user-area.md section 5); otherwise the message is stored as sending before this returns.
import type { JsonObject } from '../json.ts';
import { writeOptimisticMessage } from './write-message.ts';
import type { CommandContext } from './context.ts';

export interface SendMessageInput {
  conversationId: string;
  text: string;
  payload?: JsonObject | null;
}

export interface SentHandle {
  key: string;
  correlationId: string;
}

export async function sendMessage(ctx: CommandContext, input: SendMessageInput): Promise<SentHandle | null> {
  const text = input.text.trim();
  if (text === '') return null;
  const { db } = ctx;
  const handle = await db.transaction('rw', db.syncTables, async () => {
    const conversation = await db.conversations.get(input.conversationId);
    if (conversation && conversation.status !== 'active') return null;
    const m = await writeOptimisticMessage(db, {
      conversationId: input.conversationId,
      text,
      correlationId: ctx.newId(),
      payload: input.payload ?? null,
      userId: ctx.userId,
      now: ctx.now(),
    });
    return { key: m.key, correlationId: m.correlationId ?? '' };
  });
  if (handle) ctx.notify();
  return handle;
}

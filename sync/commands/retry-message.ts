// R1.5: retry removes the failed copy and sends its text again, as a new message at the end. It keeps
// the correlation id: if the failed attempt did reach the server, the server returns that row instead
// of storing a second one (invariant 2).
import { writeOptimisticMessage } from '../send/optimistic-message.ts';
import type { CommandContext } from './context.ts';

export async function retryMessage(ctx: CommandContext, key: string): Promise<boolean> {
  const { db } = ctx;
  const done = await db.transaction('rw', db.syncTables, async () => {
    const failed = await db.messages.get(key);
    if (!failed || failed.state !== 'failed' || failed.correlationId === null) return false;
    await db.messages.delete(key);
    await writeOptimisticMessage(db, {
      conversationId: failed.conversationId,
      text: failed.text,
      correlationId: failed.correlationId,
      payload: failed.payload,
      userId: ctx.userId,
      now: ctx.now(),
    });
    return true;
  });
  if (done) ctx.notify();
  return done;
}

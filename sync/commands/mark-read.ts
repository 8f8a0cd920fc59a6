// R1.7: markRead moves this user's cursor forward at once; the outbox holds one read entry per
// conversation with the newest message, so a burst of reads pushes once.
import { moveCursor } from '../merge/read-cursor.ts';
import { queue } from '../send/outbox.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import type { CommandContext } from './context.ts';

export async function markRead(ctx: CommandContext, conversationId: string, messageId: string): Promise<boolean> {
  const { db } = ctx;
  const done = await db.transaction('rw', db.syncTables, async () => {
    const message = await db.messages.where('serverId').equals(messageId.toLowerCase()).first();
    if (!message || message.conversationId !== conversationId) return false;
    const moved = moveCursor(await db.readCursors.get(conversationId), conversationId, message.serverId ?? messageId, message.orderKey);
    if (!moved) return false;
    await db.readCursors.put(moved);
    await queue(db, { kind: 'read', conversationId, messageId: moved.messageId ?? messageId }, ctx.now());
    await refreshSummaries(db, [conversationId]);
    return true;
  });
  if (done) ctx.notify();
  return done;
}

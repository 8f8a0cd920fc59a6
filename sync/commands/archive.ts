// R1.6: archive and unarchive show at once; the queued value is pushed later and reverted silently if
// the server refuses it for good (user-area.md section 4).
import { withLocalArchive } from '../merge/conversation.ts';
import { queue } from '../send/outbox.ts';
import { timestampFromMs } from '../model/timestamps.ts';
import type { CommandContext } from './context.ts';

async function setArchived(ctx: CommandContext, conversationId: string, archive: boolean): Promise<boolean> {
  const { db } = ctx;
  const done = await db.transaction('rw', db.syncTables, async () => {
    const c = await db.conversations.get(conversationId);
    if (!c || (c.archivedAt !== null) === archive) return false;
    const archivedAt = archive ? timestampFromMs(ctx.now()) : null;
    await db.conversations.put(withLocalArchive(c, archivedAt));
    await queue(db, { kind: 'archive', conversationId, archivedAt }, ctx.now());
    return true;
  });
  if (done) ctx.notify();
  return done;
}

export function archive(ctx: CommandContext, conversationId: string): Promise<boolean> {
  return setArchived(ctx, conversationId, true);
}

export function unarchive(ctx: CommandContext, conversationId: string): Promise<boolean> {
  return setArchived(ctx, conversationId, false);
}

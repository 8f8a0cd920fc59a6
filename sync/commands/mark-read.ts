// R1.7: markRead moves this user's cursor forward at once. The server hears of it only when the move
// changes something there: when it passes a message the server counts or notifies (R2.8 unread:
// specialist; R10.1 push: specialist, AI, system). Passing only user messages (the user's own send,
// a colleague's message) changes no unread count and cancels no notification, so it stays local —
// no request, no change-feed row, no realtime echo to every device of the user — until a later move
// that does matter carries it. The outbox holds one read entry per conversation with the newest
// message, so a burst of reads pushes once; an entry already queued takes the new position.
import { moveCursor } from '../merge/read-cursor.ts';
import { outboxKey, queue } from '../send/outbox.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import type { SyncDb } from '../db/schema.ts';
import type { CommandContext } from './context.ts';

/** Directions the server counts as unread or notifies (R2.8, R10.1); only `user` is neither. */
export const SERVER_READ_DIRECTIONS = ['specialist', 'ai', 'system'] as const;

/** Whether a message the server counts or notifies lies in (after, upTo] of the conversation's order. */
export async function passesServerRead(db: SyncDb, conversationId: string, after: string, upTo: string): Promise<boolean> {
  const hits = await Promise.all(
    SERVER_READ_DIRECTIONS.map((d) =>
      db.messages
        .where('[conversationId+direction+orderKey]')
        .between([conversationId, d, after], [conversationId, d, upTo], false, true)
        .first(),
    ),
  );
  return hits.some((m) => m !== undefined);
}

export async function markRead(ctx: CommandContext, conversationId: string, messageId: string): Promise<boolean> {
  const { db } = ctx;
  const queued = await db.transaction('rw', db.syncTables, async () => {
    const message = await db.messages.where('serverId').equals(messageId.toLowerCase()).first();
    if (!message || message.conversationId !== conversationId) return null;
    const local = await db.readCursors.get(conversationId);
    const moved = moveCursor(local, conversationId, message.serverId ?? messageId, message.orderKey);
    if (!moved) return null;
    const op = { kind: 'read', conversationId, messageId: moved.messageId ?? messageId } as const;
    const waiting = await db.outbox.where('key').equals(outboxKey(op)).first();
    // From the position the server has (serverOrderKey: '' = none, every message counts).
    const push = waiting !== undefined || (await passesServerRead(db, conversationId, local?.serverOrderKey ?? '', moved.orderKey));
    await db.readCursors.put(push ? moved : { ...moved, pending: 0 });
    if (push) await queue(db, op, ctx.now());
    await refreshSummaries(db, [conversationId]);
    return push;
  });
  if (queued) ctx.notify();
  return queued !== null;
}

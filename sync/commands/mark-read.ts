// R1.7: markRead moves this user's cursor forward at once; the outbox holds one read entry per
// conversation with the newest message, so a burst of reads pushes once. A move that would pass only
// user messages (the user's own send, a colleague's message) is not made at all: it would change no
// unread count and cancel no notification, yet cost a request, a change-feed row and a realtime echo
// to each of the user's devices after every send. Not moving (rather than moving only locally) keeps
// the device's position the server's: a counted message that reaches the device late with an earlier
// position still lands after the cursor, unread here as on the server, and the open chat's next
// markRead passes it and pushes (the fuzz's seed 150 caught the local-only form).
import { moveCursor } from '../merge/read-cursor.ts';
import { outboxKey, queue } from '../send/outbox.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import type { SyncDb } from '../db/schema.ts';
import type { CommandContext } from './context.ts';

/** Directions the server counts as unread or notifies (R2.8 unread, R10.1 push); only `user` is neither. */
const SERVER_READ_DIRECTIONS = ['specialist', 'ai', 'system'] as const;

/** Whether a message the server counts or notifies lies in (after, upTo] of the conversation's order. */
async function passesCounted(db: SyncDb, conversationId: string, after: string, upTo: string): Promise<boolean> {
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
  const done = await db.transaction('rw', db.syncTables, async () => {
    // Independent reads together: one round trip to the IndexedDB backend instead of three, inside
    // a transaction that holds every sync table (the next arrival's write waits for it).
    const [message, local, waiting] = await Promise.all([
      db.messages.where('serverId').equals(messageId.toLowerCase()).first(),
      db.readCursors.get(conversationId),
      // A read already waiting to go out takes the newer position whatever it passes (one push either way).
      db.outbox.where('key').equals(outboxKey({ kind: 'read', conversationId, messageId })).first(),
    ]);
    if (!message || message.conversationId !== conversationId) return false;
    const moved = moveCursor(local, conversationId, message.serverId ?? messageId, message.orderKey);
    if (!moved) return false;
    const op = { kind: 'read', conversationId, messageId: moved.messageId ?? messageId } as const;
    if (!waiting && !(await passesCounted(db, conversationId, local?.orderKey ?? '', moved.orderKey))) return false;
    await db.readCursors.put(moved);
    await queue(db, op, ctx.now());
    await refreshSummaries(db, [conversationId]);
    return true;
  });
  if (done) ctx.notify();
  return done;
}

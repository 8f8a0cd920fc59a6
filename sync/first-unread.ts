// R2.9: where a chat opens. The chat screen opens at its first unread message (a 'Nové správy'
// divider above it), else at the newest. That message is found from the read cursor in the list
// the screen shows (R2.8: the first specialist message after the cursor's message), never from the
// conversation's unread count: a backlog's summaries lag its stored messages by up to 2 s (R19.6),
// and a count shorter than the list's unread messages named one in the middle of the history, where
// a chat opened during an initial sync stayed (the 10,000-message journey never saw its newest
// message). The count and the list are also two reads, which a page's commit can fall between.
import type { SyncDb } from './db/schema.ts';
import type { LocalMessage } from './model/local-types.ts';

/**
 * The read cursor's place in the chat's message order ('' without one: everything is unread). A
 * cursor that arrived before its message takes the message's place once it is stored (as R2.7's
 * summary counts it). Read-only: the chat screen reads it once when it opens, before its own read
 * mark moves it.
 */
export async function readPosition(db: SyncDb, conversationId: string): Promise<string> {
  const cursor = await db.readCursors.get(conversationId);
  if (!cursor) return '';
  if (cursor.orderKey !== '' || cursor.messageId === null) return cursor.orderKey;
  const target = await db.messages.where('serverId').equals(cursor.messageId).first();
  return target && target.conversationId === conversationId ? target.orderKey : '';
}

/** R2.8: the first specialist message of `list` (in R4.1 order) after `position`; null when none is unread. */
export function firstUnreadKey(list: readonly LocalMessage[], position: string): string | null {
  for (const m of list) if (m.direction === 'specialist' && m.orderKey > position) return m.key;
  return null;
}

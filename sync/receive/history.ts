// R17.5: a chat whose older history has not arrived yet must not look complete. A backlog's head
// (R5.11) stores the newest page of the most recent conversations before the feed brings their older
// rows in change order; until the feed's cursor passes the backlog's head, such a conversation's
// history is partial. Which ones: the head's conversations beyond the first `withMessages` (latest
// activity first: their new messages were not read at all), and those whose page was full (the
// per-conversation limit: older changes may remain). A shorter page holds every change since the
// cursor, and what is older than the cursor was here before.
import type { SyncDb } from '../db/schema.ts';
import type { RemoteConversation, RemoteMessage } from '../model/remote-types.ts';
import type { HeadLimits } from '../server/api.ts';

/** Records the conversations a head left partial, complete once the feed's cursor reaches `until`. */
export async function markPartialHistory(
  db: SyncDb,
  head: { conversations: RemoteConversation[]; messages: RemoteMessage[] },
  limits: HeadLimits,
  until: number,
): Promise<void> {
  const counts = new Map<string, number>();
  for (const m of head.messages) counts.set(m.conversation_id, (counts.get(m.conversation_id) ?? 0) + 1);
  const partial = head.conversations
    .map((c) => c.id)
    .filter((id, i) => i >= limits.withMessages || (counts.get(id) ?? 0) >= limits.perConversation);
  await db.meta.put({ key: 'history', until, conversations: partial });
}

/** R17.5: a pull caught up: no conversation is partial any more (also if the counter's head is never reached). */
export async function historyComplete(db: SyncDb): Promise<void> {
  if (await db.meta.get('history')) await db.meta.delete('history');
}

/**
 * R17.5: whether older messages of this conversation are still on their way (the feed has not
 * reached the backlog's head that left it partial). A query for `useLiveQuery`.
 */
export async function olderHistoryPending(db: SyncDb, conversationId: string): Promise<boolean> {
  const [history, feed] = await Promise.all([db.meta.get('history'), db.meta.get('feed')]);
  if (history?.key !== 'history' || !history.conversations.includes(conversationId)) return false;
  const cursor = feed?.key === 'feed' ? feed.cursor : 0;
  return cursor < history.until;
}

// R19.10: a pull page's summaries kept by tally instead of recount. A page that only adds messages
// new to the device to a conversation whose stored summary is exact adds them to it: the unread
// count grows by the added specialist messages after the read cursor (R2.8), and the last message is
// the newer of the stored one and the newest added. No index range is counted, so a long chat costs
// what its page brought, not what it holds (the 10,000-message chat's count took 100–240 ms a
// refresh, and R19.6 therefore held an initial sync's previews up to 2 s behind its pages).
//
// Exact, because (summary-store.ts) every write of messages or read cursors refreshes the summaries
// it touches in its own transaction, except the pages R19.6 defers (`FeedMeta.summariesPending`): a
// conversation not pending has a summary equal to its recount, and adding rows that were not stored
// changes the recount by exactly what they add. The caller passes only such conversations: no row
// of theirs was replaced or removed in the transaction, their read cursor was not written, they were
// stored before it and are not pending. A cursor that still waits for its message's position is
// recounted (refreshSummaries resolves it).
import { Dexie } from 'dexie';
import type { SyncDb } from './schema.ts';
import type { LocalConversation, LocalMessage } from '../model/local-types.ts';
import { sameSummary, summarize } from '../merge/summary.ts';

/** The newest of `rows` by R4.1's order. */
function newestOf(rows: LocalMessage[]): LocalMessage {
  let best = rows[0]!;
  for (const m of rows) if (m.orderKey > best.orderKey) best = m;
  return best;
}

/**
 * Whether `candidate` is after the stored last message, or null when their created_at alone cannot
 * tell (equal, or of different lengths: the order key continues after the timestamp, R4.1).
 */
function isAfterStored(candidate: LocalMessage, stored: NonNullable<LocalConversation['lastMessage']>): boolean | null {
  if (candidate.createdAt.length !== stored.createdAt.length || candidate.createdAt === stored.createdAt) return null;
  return candidate.createdAt > stored.createdAt;
}

/**
 * Adds each conversation's new rows to its stored summary, inside the caller's transaction. Returns
 * the conversations it kept; the others (not stored, or a cursor waiting for its message) are left
 * to the caller's recount.
 */
export async function tallySummaries(db: SyncDb, added: Map<string, LocalMessage[]>): Promise<Set<string>> {
  const kept = new Set<string>();
  if (added.size === 0) return kept;
  const ids = [...added.keys()];
  const [conversations, cursors] = await Promise.all([db.conversations.bulkGet(ids), db.readCursors.bulkGet(ids)]);
  const puts: LocalConversation[] = [];
  await Promise.all(
    ids.map(async (id, i) => {
      const conversation = conversations[i];
      const cursor = cursors[i];
      if (!conversation) return;
      if (cursor && cursor.orderKey === '' && cursor.messageId !== null) return;
      const rows = added.get(id)!;
      const cursorKey = cursor?.orderKey ?? '';
      let unread = conversation.unreadCount;
      for (const m of rows) if (m.direction === 'specialist' && m.orderKey > cursorKey) unread++;
      const candidate = newestOf(rows);
      const stored = conversation.lastMessage;
      let after = stored ? isAfterStored(candidate, stored) : true;
      if (after === null) {
        // A tie on the timestamp: the index says which is last (one step, no count).
        const last = await db.messages.where('[conversationId+orderKey]').between([id, Dexie.minKey], [id, Dexie.maxKey]).last();
        after = last?.key === candidate.key;
      }
      const s = after
        ? { ...summarize(conversation, [candidate], '\uffff'), unreadCount: unread }
        : { lastMessage: stored, unreadCount: unread, sortAt: conversation.sortAt };
      kept.add(id);
      if (!sameSummary(conversation, s)) puts.push({ ...conversation, ...s });
    }),
  );
  if (puts.length) await db.conversations.bulkPut(puts);
  return kept;
}

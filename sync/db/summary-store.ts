// Keeps each conversation's summary (last message, unread count, list order) in step with its
// stored messages and read cursor. Runs inside the caller's transaction. Uses the indexes only (the
// last message; a count of specialist messages after the cursor), so a chat with thousands of
// messages costs no more than a short one.
import { Dexie } from 'dexie';
import type { SyncDb } from './schema.ts';
import type { LocalMessage } from '../model/local-types.ts';
import { sameSummary, summarize } from '../merge/summary.ts';

export function conversationMessages(db: SyncDb, conversationId: string): Promise<LocalMessage[]> {
  return db.messages.where('[conversationId+orderKey]').between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]).toArray();
}

/**
 * Refreshes the summaries of the given conversations. Each refresh reads and writes only its own
 * conversation's rows, so all of them run at once: their requests are pipelined to the IndexedDB
 * backend instead of waiting for one round trip after another (an initial-sync page touches dozens).
 */
export async function refreshSummaries(db: SyncDb, conversationIds: Iterable<string>): Promise<void> {
  await Promise.all([...new Set(conversationIds)].map((id) => refreshSummary(db, id)));
}

async function refreshSummary(db: SyncDb, id: string): Promise<void> {
  // Independent reads are issued together: one round trip to the IndexedDB backend, not two.
  const [conversation, stored] = await Promise.all([db.conversations.get(id), db.readCursors.get(id)]);
  if (!conversation) return;
  let cursor = stored;
  // A cursor that arrived before its message learns the message's position now.
  if (cursor && cursor.orderKey === '' && cursor.messageId !== null) {
    const target = await db.messages.where('serverId').equals(cursor.messageId).first();
    if (target && target.conversationId === id) {
      cursor = { ...cursor, orderKey: target.orderKey, serverOrderKey: cursor.serverMessageId === cursor.messageId ? target.orderKey : cursor.serverOrderKey };
      await db.readCursors.put(cursor);
    }
  }
  const cursorKey = cursor?.orderKey ?? '';
  const [last, unreadCount] = await Promise.all([
    db.messages.where('[conversationId+orderKey]').between([id, Dexie.minKey], [id, Dexie.maxKey]).last(),
    // R2.8 as an index count: specialist messages after the cursor's position.
    db.messages.where('[conversationId+direction+orderKey]').between([id, 'specialist', cursorKey], [id, 'specialist', Dexie.maxKey], false, true).count(),
  ]);
  const s = { ...summarize(conversation, last ? [last] : [], '\uffff'), unreadCount };
  if (!sameSummary(conversation, s)) await db.conversations.put({ ...conversation, ...s });
}

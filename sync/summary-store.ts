// Keeps each conversation's summary (last message, unread count, list order) in step with its
// stored messages and read cursor. Runs inside the caller's transaction.
import { Dexie } from 'dexie';
import type { SyncDb } from './db/schema.ts';
import type { LocalMessage } from './local-types.ts';
import { sameSummary, summarize } from './summary.ts';

export function conversationMessages(db: SyncDb, conversationId: string): Promise<LocalMessage[]> {
  return db.messages.where('[conversationId+orderKey]').between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]).toArray();
}

export async function refreshSummaries(db: SyncDb, conversationIds: Iterable<string>): Promise<void> {
  for (const id of conversationIds) {
    const conversation = await db.conversations.get(id);
    if (!conversation) continue;
    const messages = await conversationMessages(db, id);
    let cursor = await db.readCursors.get(id);
    // A cursor that arrived before its message learns the message's position now.
    if (cursor && cursor.orderKey === '' && cursor.messageId !== null) {
      const target = messages.find((m) => m.serverId === cursor!.messageId);
      if (target) {
        cursor = { ...cursor, orderKey: target.orderKey, serverOrderKey: cursor.serverMessageId === cursor.messageId ? target.orderKey : cursor.serverOrderKey };
        await db.readCursors.put(cursor);
      }
    }
    const s = summarize(conversation, messages, cursor?.orderKey ?? '');
    if (!sameSummary(conversation, s)) await db.conversations.put({ ...conversation, ...s });
  }
}

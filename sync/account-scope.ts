// R5.5: the local store holds one account's data. Starting in another account (impersonation starts
// or stops) clears the synced rows and the feed cursor; queued commands stay (the server judges them).
import { initialFeed, readFeed } from './apply.ts';
import type { SyncDb } from './db/schema.ts';

export async function scopeToAccount(db: SyncDb, accountId: string): Promise<boolean> {
  return db.transaction('rw', db.syncTables, async () => {
    const feed = await readFeed(db);
    if (feed.accountId === accountId) return false;
    if (feed.accountId !== null) {
      await Promise.all([db.conversations.clear(), db.messages.clear(), db.readCursors.clear(), db.typing.clear(), db.account.clear(), db.specialists.clear()]);
      await db.meta.delete('reference');
      await db.meta.put(initialFeed(accountId));
    } else {
      await db.meta.put({ ...feed, accountId });
    }
    return true;
  });
}

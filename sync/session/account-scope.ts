// R5.5: the local store holds one account's data. Starting in another account (impersonation starts
// or stops) clears the synced rows and the feed cursor; queued commands stay (the server judges them).
import { initialFeed, readFeed } from '../receive/apply.ts';
import type { SyncDb } from '../db/schema.ts';

export async function scopeToAccount(db: SyncDb, accountId: string): Promise<boolean> {
  return db.transaction('rw', db.syncTables, async () => {
    const feed = await readFeed(db);
    if (feed.accountId === accountId) return false;
    if (feed.accountId !== null) {
      // R9.8: unsent messages are the user's text (invariant 1) and stay, whichever account they
      // belong to; their sends wait until the engine acts in that account again (push.ts).
      const unsent = await db.messages.filter((m) => m.serverId === null && m.state !== 'sent').toArray();
      await clearSynced(db);
      await db.messages.bulkPut(unsent);
      await db.meta.delete('reference');
      await db.meta.put(initialFeed(accountId));
    } else {
      await db.meta.put({ ...feed, accountId });
    }
    return true;
  });
}

async function clearSynced(db: SyncDb): Promise<void> {
  await Promise.all([db.conversations.clear(), db.messages.clear(), db.readCursors.clear(), db.typing.clear(), db.account.clear(), db.specialists.clear()]);
}

/** R9.18: feed resets per database connection, counted in memory (resetFeed). */
const resets = new WeakMap<SyncDb, number>();

/**
 * R9.18: how many times this connection's feed was reset (R5.7/R9.7). A send records it when its
 * request leaves; an answer that finds another number belongs to the database before the reset (a
 * restore may have lost its row) and is not stored: the send goes again under its correlation id.
 */
export function feedGeneration(db: SyncDb): number {
  return resets.get(db) ?? 0;
}

/**
 * R5.7: forget the synced rows and pull from 0 (the server's database was reset). Unsent messages are
 * the user's text and stay (invariant 1); so does the outbox.
 */
export async function resetFeed(db: SyncDb): Promise<void> {
  // R9.18: counted before the reset's transaction, so an answer stored after it always sees the new
  // number (one stored before it is cleared with the synced rows, as R9.7 says).
  resets.set(db, feedGeneration(db) + 1);
  await db.transaction('rw', db.syncTables, async () => {
    const feed = await readFeed(db);
    const unsent = await db.messages.filter((m) => m.serverId === null && m.state !== 'sent').toArray();
    await clearSynced(db);
    await db.messages.bulkPut(unsent);
    // The feed identity stays: a reset for R5.7 is the same database; R9.7 sets the new one after.
    await db.meta.put({ ...initialFeed(feed.accountId), pulledAt: feed.pulledAt, epoch: feed.epoch ?? null });
  });
}

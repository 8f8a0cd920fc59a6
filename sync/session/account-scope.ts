// R5.5: the local store holds one account's data. Starting in another account (impersonation starts
// or stops) clears the synced rows and the feed cursor; queued commands stay (the server judges them).
import { initialFeed, readFeed } from '../receive/apply.ts';
import type { SyncDb } from '../db/schema.ts';
import { countFeedChange } from './feed-generation.ts';

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

/**
 * R5.7: forget the synced rows and pull from 0 (the server's database was reset). Unsent messages are
 * the user's text and stay (invariant 1); so does the outbox.
 */
export async function resetFeed(db: SyncDb): Promise<void> {
  // R9.18: counted before the reset's transaction, so an answer stored after it always sees the new
  // number (one stored before it is cleared with the synced rows, as R9.7 says).
  countFeedChange(db);
  await db.transaction('rw', db.syncTables, async () => {
    const feed = await readFeed(db);
    await clearKeepingUnsent(db);
    // The feed identity stays: a reset for R5.7 is the same database; R9.7 sets the new one after.
    await db.meta.put({ ...initialFeed(feed.accountId), pulledAt: feed.pulledAt, epoch: feed.epoch ?? null });
  });
}

/** The synced rows go; unsent messages are the user's text and stay (invariant 1). Inside a transaction. */
async function clearKeepingUnsent(db: SyncDb): Promise<void> {
  const unsent = await db.messages.filter((m) => m.serverId === null && m.state !== 'sent').toArray();
  await clearSynced(db);
  await db.messages.bulkPut(unsent);
}

/**
 * R9.20: the first feed identity a pull meets (R9.7 adopts it). Whatever the device stored before it
 * came from outside a pull of a known database: a send's answer or a realtime row that arrived while
 * the first pull was out, or a send still on the wire. A backup restored meanwhile took those rows
 * away, and nothing would ever say so (the hostile fuzz's seed 7 under load: a send answered from the
 * database before the restore, still shown sent). So when any synced row is stored, or a send of this
 * account is queued, the feed changes identity as a reset does: counted (inside this transaction:
 * a queued send's answer and a channel joined before are judged against it, feed-generation.ts),
 * the synced rows cleared, the cursor back to 0. A store with nothing of the feed adopts it as is,
 * so a new phone's first sync and its realtime rows cost nothing more. Returns whether it reset.
 */
export async function adoptFeedIdentity(db: SyncDb, epoch: string): Promise<boolean> {
  return db.transaction('rw', db.syncTables, async () => {
    const feed = await readFeed(db);
    const unproven = (await holdsSyncedRows(db)) || (await sendQueuedIn(db, feed.accountId));
    if (unproven) {
      countFeedChange(db);
      await clearKeepingUnsent(db);
      await db.meta.put({ ...initialFeed(feed.accountId), pulledAt: feed.pulledAt, epoch });
    } else await db.meta.put({ ...feed, epoch });
    return unproven;
  });
}

/** Whether any row of the feed is stored (a conversation, a read cursor, a message the server has). */
async function holdsSyncedRows(db: SyncDb): Promise<boolean> {
  if ((await db.conversations.count()) > 0 || (await db.readCursors.count()) > 0) return true;
  return (await db.messages.filter((m) => m.serverId !== null || m.state === 'sent').first()) !== undefined;
}

/** A send that may be on the wire: queued for this account (or for none known yet; R9.8 keeps the others waiting). */
async function sendQueuedIn(db: SyncDb, accountId: string | null): Promise<boolean> {
  const entry = await db.outbox.filter((e) => e.op.kind === 'send' && (!e.op.accountId || accountId === null || e.op.accountId === accountId)).first();
  return entry !== undefined;
}

// R5.1/R5.2: the change feed. One request for the whole account (sync_pull since the cursor), paged
// until has_more is false; each page lands in one transaction together with the new cursor.
import { applyRemoteChanges, readFeed } from './apply.ts';
import { resetFeed } from '../session/account-scope.ts';
import { PULL_PAGE_LIMIT } from '../model/constants.ts';
import type { SyncDb } from '../db/schema.ts';
import { mergeSpecialists } from '../merge/specialist.ts';
import { ServerError, type ServerApi } from '../server/api.ts';
import type { RemotePullPage } from '../model/remote-types.ts';

export interface PullResult {
  pages: number;
  /** Whether anything stored changed. */
  changed: boolean;
  cursor: number;
}

/**
 * R9.9: a page carrying rows of another account means the server now answers for another account
 * (impersonation switched on another device): its cursor is that account's counter, so taking it
 * would skip this account's rows for good. Nothing of such a page is stored.
 */
export class ForeignFeedError extends ServerError {
  constructor() {
    super('transient', 'sync_pull answered for another account', null);
  }
}

/**
 * R9.9: the page says which account it answers for (migration 20261124000100), so even an empty page
 * of another account (whose counter would pass for ours, or look like a reset, R5.7) is recognised;
 * rows of another account are the check for servers that do not say.
 */
function foreignPage(page: RemotePullPage, accountId: string): boolean {
  if (page.account_id && page.account_id !== accountId) return true;
  const other = (r: { account_id: string | null }) => r.account_id !== null && r.account_id !== accountId;
  return page.conversations.some(other) || page.messages.some(other);
}

/**
 * R9.7: the page's feed identity against the one the cursor belongs to. Another one means a backup
 * was restored (or the database replaced): the numbers are not comparable, start over from 0. The
 * first identity seen is adopted. Returns whether the feed was reset.
 */
async function checkEpoch(db: SyncDb, page: RemotePullPage): Promise<boolean> {
  if (!page.feed_epoch) return false;
  const feed = await readFeed(db);
  if (feed.epoch === page.feed_epoch) return false;
  const restored = feed.epoch !== null && feed.epoch !== undefined;
  if (restored) await resetFeed(db);
  await db.meta.put({ ...(await readFeed(db)), epoch: page.feed_epoch });
  return restored;
}

export async function pullFeed(
  db: SyncDb,
  server: ServerApi,
  userId: string,
  now: () => number,
  limit = PULL_PAGE_LIMIT,
  accountId: string | null = null,
): Promise<PullResult> {
  let pages = 0;
  let changed = false;
  let cursor = (await readFeed(db)).cursor;
  // The next page is requested as soon as this one has arrived and is applied while it travels: the
  // server's page cursor is known before the apply, and the apply of page n still lands before page
  // n+1's (a failed request surfaces only after the page before it is stored, R5.1).
  let next: Promise<RemotePullPage> = server.pull(cursor, limit);
  for (;;) {
    const page = await next;
    pages++;
    if (accountId !== null && foreignPage(page, accountId)) throw new ForeignFeedError();
    if (await checkEpoch(db, page)) {
      cursor = 0;
      changed = true;
      next = server.pull(cursor, limit);
      continue;
    }
    if (page.account_change_seq < cursor) {
      // R5.7: the server's counter is behind our cursor: the database was reset or replaced. Start over.
      await resetFeed(db);
      cursor = 0;
      changed = true;
      next = server.pull(cursor, limit);
      continue;
    }
    const prefetch = page.has_more && page.cursor > cursor ? server.pull(page.cursor, limit) : null;
    // Kept from being reported as unhandled while the page is applied; awaited below.
    prefetch?.catch(() => undefined);
    const r = await applyRemoteChanges(
      db,
      { conversations: page.conversations, messages: page.messages, readCursors: page.read_cursors, deleted: page.deleted },
      userId,
      { kind: 'page', cursor: page.cursor },
    );
    changed ||= r.changed;
    // A page that does not move the cursor but promises more would loop for ever.
    if (page.has_more && r.cursor <= cursor) throw new ServerError('permanent', 'sync_pull did not advance its cursor', null);
    if (!page.has_more) {
      cursor = r.cursor;
      break;
    }
    // The prefetch asked from the page's cursor; the stored cursor can only be ahead of it if a
    // realtime row moved it meanwhile (R5.3), and rows between are harmless to apply twice (R2.1).
    next = prefetch ?? server.pull(r.cursor, limit);
    cursor = r.cursor;
  }
  const feed = await readFeed(db);
  await db.meta.put({ ...feed, pulledAt: now() });
  return { pages, changed, cursor };
}

/** The account and the specialists it may use (the specialists screen and conversation avatars). */
export async function pullReference(db: SyncDb, server: ServerApi, accountId: string, now: () => number): Promise<void> {
  try {
    const [account, specialists] = await Promise.all([server.fetchAccount(accountId), server.fetchActiveSpecialists(accountId)]);
    const local = mergeSpecialists(specialists, new Set(specialists.map((s) => s.id)));
    await db.transaction('rw', db.account, db.specialists, db.meta, async () => {
      await db.account.clear();
      await db.account.put({ id: account.id, name: account.name, plan: account.plan, specialistsMode: account.specialists_mode });
      await db.specialists.toCollection().modify({ active: 0 });
      await db.specialists.bulkPut(local);
      await db.meta.put({ key: 'reference', loadedAt: now(), error: null });
    });
  } catch (err) {
    const previous = await db.meta.get('reference');
    const loadedAt = previous?.key === 'reference' ? previous.loadedAt : null;
    await db.meta.put({ key: 'reference', loadedAt, error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

// R5.1/R5.2: the change feed. One request for the whole account (sync_pull since the cursor), paged
// until has_more is false; each page lands in one transaction together with the new cursor.
// R5.8–R5.10: with a pacer, pages are sized by bytes and a page cut mid-way is asked again.
// R5.11: a backlog's newest rows (the list, each recent conversation's newest page) come first.
import { applyRemoteChanges, readFeed } from './apply.ts';
import { adoptFeedIdentity, resetFeed } from '../session/account-scope.ts';
import { feedGeneration } from '../session/feed-generation.ts';
import { PULL_PAGE_LIMIT } from '../model/constants.ts';
import type { SyncDb } from '../db/schema.ts';
import { mergeSpecialists } from '../merge/specialist.ts';
import { historyComplete, markPartialHistory } from './history.ts';
import { isTransient, ServerError, type HeadLimits, type RemoteHead, type ServerApi } from '../server/api.ts';
import type { PullPacer, Transfer } from './pace.ts';
import type { RemotePullPage } from '../model/remote-types.ts';
import { hopStart, pullHop } from '../pull-marks.ts';
import { PullLedger } from './pull-ledger.ts';
import { refreshPendingSummaries, SummaryPace } from './backlog-summaries.ts';
import { PageChain } from './page-chain.ts';

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
 * first identity seen is adopted (R9.20: after clearing what was stored before it, if anything).
 * Returns whether the pull starts over from 0 (a page asked from 0 stays good after R9.20's clearing).
 */
async function checkEpoch(db: SyncDb, page: RemotePullPage, askedFrom: number): Promise<boolean> {
  if (!page.feed_epoch) return false;
  const feed = await readFeed(db);
  if (feed.epoch === page.feed_epoch) return false;
  if (feed.epoch === null || feed.epoch === undefined) return (await adoptFeedIdentity(db, page.feed_epoch)) && askedFrom !== 0;
  await resetFeed(db);
  await db.meta.put({ ...(await readFeed(db)), epoch: page.feed_epoch });
  return true;
}

/** R5.10: where a pull stands after each stored page (change numbers of the account's feed). */
export interface PullStep {
  /** The cursor before this page. */
  from: number;
  /** The cursor stored with this page. */
  cursor: number;
  /** The account's newest change number as the page saw it. */
  head: number;
  hasMore: boolean;
}

export interface PullOptions {
  /** R5.8: sizes each page by bytes and bounds its request (pace.ts); without it pages are `limit` rows. */
  pacer?: PullPacer;
  /** Monotonic milliseconds for the pacer's measurements. */
  monotonic?: () => number;
  /** R5.10: told after each page is stored. */
  onPage?: (step: PullStep) => void;
  /** R5.11: whether this backlog's head was read (kept by the caller across pulls; reset when caught up). */
  head?: { fetched: boolean };
}

/** R5.11: the head of a backlog: the list, and the newest page of the most recent conversations. */
export const HEAD_LIMITS: HeadLimits = { conversations: 200, withMessages: 20, perConversation: 30 };

/** R5.11: a backlog's head as the server answered it; null when it could not be read (best effort). */
type Head = RemoteHead | null;

/** R5.11: asks the head of the backlog since `since`; a failure is an answer of null. */
function askHead(server: ServerApi, since: number): Promise<Head> {
  if (!server.pullHead) return Promise.resolve(null);
  const asked = hopStart();
  return server.pullHead(since, HEAD_LIMITS).then(
    (head) => {
      pullHop('head-request', asked, { rows: head.conversations.length + head.messages.length });
      return head;
    },
    () => null,
  );
}

/**
 * R5.11: the newest rows of a backlog, stored before its older history: they do not move the cursor
 * (the feed brings them again in order, harmlessly, R2.1). Best effort: a failure leaves the feed to
 * bring everything as before; rows of another account are not stored (R9.9). `marked` is told once
 * R17.5's mark is stored, before the head's rows are (R19.12: the next pages travel meanwhile).
 */
async function storeHead(db: SyncDb, head: Head, userId: string, accountId: string | null, until: number, ledger: PullLedger, marked: () => void): Promise<void> {
  if (!head) return;
  try {
    const other = (r: { account_id: string | null }) => accountId !== null && r.account_id !== null && r.account_id !== accountId;
    if (head.conversations.some(other) || head.messages.some(other)) return;
    // R17.5: marked before the head's rows are stored, so no chat shows its newest page without the
    // line that older messages are on their way (stored first, a journey saw the chat without it).
    await markPartialHistory(db, head, HEAD_LIMITS, until);
    marked();
    await applyRemoteChanges(db, { conversations: head.conversations, messages: head.messages, readCursors: [], deleted: [] }, userId, { kind: 'none' }, { ledger });
  } catch {
    // The feed that follows brings these rows anyway.
  }
}

/**
 * R9.7/R19.3: whether `page` carries the identity this pull already checked, with no feed reset since
 * (or none at all: nothing to check), so its identity needs no read.
 */
function sameFeed(page: RemotePullPage, checkedEpoch: string | null, generation: number, db: SyncDb): boolean {
  return page.feed_epoch ? page.feed_epoch === checkedEpoch && feedGeneration(db) === generation : true;
}

/**
 * R19.7: pages asked ahead of the one being stored, and how many of those already here one
 * transaction stores together: bounded in rows, so a transaction holds the app's live queries (which
 * wait for it) no longer than about two full pages' writes.
 */
export const PAGES_AHEAD = 3;
export const PAGES_PER_TX = 3;
export const ROWS_PER_TX = 2000;

/** R5.9: a page request cut after some of its bytes arrived is asked again (smaller) this many times in a row. */
const CUT_RETRIES = 3;

interface PageRequest {
  page: Promise<RemotePullPage>;
  transfer: Transfer | null;
}

function rowsOf(page: RemotePullPage): number {
  return page.conversations.length + page.messages.length + page.read_cursors.length + page.deleted.length;
}

export async function pullFeed(
  db: SyncDb,
  server: ServerApi,
  userId: string,
  now: () => number,
  limit = PULL_PAGE_LIMIT,
  accountId: string | null = null,
  opts: PullOptions = {},
): Promise<PullResult> {
  const { pacer } = opts;
  const pulling = hopStart();
  const mono = opts.monotonic ?? (() => performance.now());
  const ask = (since: number): PageRequest => {
    const t = hopStart();
    const measured = (page: Promise<RemotePullPage>) => {
      if (t !== null) void page.then((p) => pullHop('fetch', t, { rows: rowsOf(p) }), () => undefined);
      return page;
    };
    if (!pacer) return { page: measured(server.pull(since, limit)), transfer: null };
    const plan = pacer.plan();
    const transfer: Transfer = { startedAt: mono(), lastByteAt: null, bytes: 0 };
    const onBytes = (n: number) => {
      transfer.bytes += n;
      transfer.lastByteAt = mono();
    };
    return { page: measured(server.pull(since, plan.limit, { stallMs: plan.stallMs, deadlineMs: plan.deadlineMs, onBytes })), transfer };
  };
  /**
   * R5.9: the page of `req`, asked again (the pacer halving it) while the link carries bytes but the
   * page is cut before its end; a request that got no byte at all fails the pull as before.
   */
  const arrive = async (req: PageRequest, since: number): Promise<RemotePullPage> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const page = await req.page;
        if (req.transfer) pacer?.completed(req.transfer, rowsOf(page), mono(), page.has_more);
        return page;
      } catch (err) {
        if (!pacer || !req.transfer) throw err;
        pacer.failed(req.transfer, mono());
        if (!isTransient(err) || req.transfer.bytes === 0 || attempt >= CUT_RETRIES) throw err;
        req = ask(since);
      }
    }
  };

  let pages = 0;
  let changed = false;
  let cursor = (await readFeed(db)).cursor;
  /** R9.7: the feed identity this pull checked, and the feed's reset count then (resetFeed). */
  let checkedEpoch: string | null = null;
  let generation = feedGeneration(db);
  /** R19.5: which keys this pull's pages may find stored. */
  const ledger = new PullLedger();
  /** R19.6: when this pull's pages refresh the summaries they touched. */
  const summaries = new SummaryPace(mono);
  // R19.7: the next pages are requested as soon as the previous one arrived and stored while they
  // travel; the server's page cursor is known before the store, and pages are stored in order (a
  // failed request surfaces only after the pages before it are stored, R5.1).
  const chain = new PageChain((since) => arrive(ask(since), since), PAGES_AHEAD);
  chain.start(cursor);
  // R19.11: an empty feed (a device's first sync, or after R5.7/R9.7 started it over) is a backlog
  // whenever the account has more than a page: its head is asked together with the first page, not
  // after it. Unused (and not stored) when the first page says there is no more.
  let headAsked: Promise<Head> | null = cursor === 0 && opts.head && !opts.head.fetched ? askHead(server, cursor) : null;
  try {
    for (;;) {
      const waited = hopStart();
      const first = await chain.next();
      pullHop('wait', waited);
      const { page } = first;
      pages++;
      if (accountId !== null && foreignPage(page, accountId)) throw new ForeignFeedError();
      // R9.7 per page, but read once per pull: a later page of the same identity matches what this
      // loop stored or found (each read was a transaction of its own, queued behind the app's reads).
      const epochAt = hopStart();
      const restored = sameFeed(page, checkedEpoch, generation, db) ? false : await checkEpoch(db, page, cursor);
      checkedEpoch = page.feed_epoch ?? null;
      generation = feedGeneration(db);
      pullHop('epoch', epochAt);
      if (restored) {
        cursor = 0;
        changed = true;
        chain.start(cursor);
        chain.release();
        continue;
      }
      if (page.account_change_seq < cursor) {
        // R5.7: the server's counter is behind our cursor: the database was reset or replaced. Start over.
        await resetFeed(db);
        cursor = 0;
        changed = true;
        chain.start(cursor);
        chain.release();
        continue;
      }
      if (pages === 1 && page.has_more && opts.head && !opts.head.fetched) {
        opts.head.fetched = true;
        const t = hopStart();
        const head = await (headAsked ?? askHead(server, cursor));
        // R19.12: the head is here, so the link is free: the next pages are asked while it is stored
        // (R17.5's mark first); none is stored before it, they wait in the chain (R19.7).
        await storeHead(db, head, userId, accountId, page.account_change_seq, ledger, () => chain.release());
        pullHop('head', t);
      }
      headAsked = null;
      chain.release();
      // R19.7: pages already here join this one's transaction (same identity, bounded in rows).
      const batch = [first];
      let rows = rowsOf(page);
      for (let more = chain.peek(); more && batch.length < PAGES_PER_TX; more = chain.peek()) {
        const prev = batch[batch.length - 1]!.page;
        const p = more.page;
        if (!prev.has_more || rows + rowsOf(p) > ROWS_PER_TX) break;
        if ((accountId !== null && foreignPage(p, accountId)) || !sameFeed(p, checkedEpoch, generation, db) || p.account_change_seq < prev.cursor) break;
        batch.push(chain.takeArrived());
        rows += rowsOf(p);
        pages++;
      }
      const last = batch[batch.length - 1]!.page;
      const applying = hopStart();
      const due = !last.has_more || summaries.due();
      const r = await applyRemoteChanges(
        db,
        {
          conversations: batch.flatMap((b) => b.page.conversations),
          messages: batch.flatMap((b) => b.page.messages),
          readCursors: batch.flatMap((b) => b.page.read_cursors),
          deleted: batch.flatMap((b) => b.page.deleted),
        },
        userId,
        { kind: 'page', cursor: Math.max(...batch.map((b) => b.page.cursor)) },
        { summaries: due ? 'now' : 'defer', ledger },
      );
      if (due) summaries.refreshed();
      pullHop('apply', applying, { rows });
      changed ||= r.changed;
      // R5.10: each page's progress, in order (the ones stored together share the transaction's).
      let from = cursor;
      for (const b of batch.slice(0, -1)) {
        const to = Math.max(from, b.page.cursor);
        opts.onPage?.({ from, cursor: to, head: b.page.account_change_seq, hasMore: b.page.has_more });
        from = to;
      }
      // A page that does not move the cursor but promises more would loop for ever.
      if (last.has_more && r.cursor <= from) throw new ServerError('permanent', 'sync_pull did not advance its cursor', null);
      opts.onPage?.({ from, cursor: r.cursor, head: last.account_change_seq, hasMore: last.has_more });
      pullHop('page', waited);
      cursor = r.cursor;
      if (!last.has_more) {
        if (opts.head) opts.head.fetched = false;
        await historyComplete(db); // R17.5: caught up, whatever the account's counter said
        pullHop('caught-up', pulling, { rows: pages });
        break;
      }
      // The chain asked from the page's cursor; the stored cursor can only be ahead of it if a
      // realtime row moved it meanwhile (R5.3), and rows between are harmless to apply twice (R2.1).
      if (!chain.pending) {
        chain.start(r.cursor);
        chain.release();
      }
    }
  } catch (err) {
    // R19.6: what the stored pages left pending is refreshed now, not at the next pull.
    await refreshPendingSummaries(db).catch(() => undefined);
    throw err;
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

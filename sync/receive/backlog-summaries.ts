// R19.6: a backlog's conversation summaries at a bounded rate instead of once per page. An initial
// sync's pages each touch dozens of conversations, and each refresh counts the chat's unread
// messages through an index (a long chat's count grows with every page it spans). A page that
// promises more keeps the conversations it touched in the feed row (`FeedMeta.summariesPending`,
// written in the page's transaction together with its cursor, so neither a crash nor a failed pull
// loses one) and refreshes every pending one once SUMMARY_INTERVAL_MS passed since this pull last
// did; the first page of a pull, the page that has no more, and a pull that stops refresh them all.
import type { SyncDb } from '../db/schema.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import { readFeed } from './apply.ts';

/** How stale a backlog's list previews (last message, unread count) may get while it arrives. */
export const SUMMARY_INTERVAL_MS = 2000;

/** When a pull's pages refresh the pending summaries (R19.6); one per pull. */
export class SummaryPace {
  private last: number | null = null;

  constructor(
    private readonly clock: () => number,
    private readonly intervalMs = SUMMARY_INTERVAL_MS,
  ) {}

  /** Whether a page that promises more refreshes now: the pull's first, then every interval. */
  due(): boolean {
    return this.last === null || this.clock() - this.last >= this.intervalMs;
  }

  refreshed(): void {
    this.last = this.clock();
  }
}

/** Refreshes what earlier pages left pending (a pull that stopped mid-way), in a transaction of its own. */
export async function refreshPendingSummaries(db: SyncDb): Promise<void> {
  await db.transaction('rw', db.syncTables, async () => {
    const feed = await readFeed(db);
    if (!feed.summariesPending?.length) return;
    await refreshSummaries(db, feed.summariesPending);
    await db.meta.put({ ...feed, summariesPending: [] });
  });
}

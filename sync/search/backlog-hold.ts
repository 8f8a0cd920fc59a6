// R19.2: the search index waits while a backlog arrives. A full catch-up (after a pull's bulk write,
// changes.ts) reads the messages table in read transactions of its own, and every one of them holds
// the pull's next page back: IndexedDB runs a write transaction only after the earlier transactions
// on its tables ended. On an initial sync of 30,000 rows the pull's pages waited ~20 s in all for the
// worker's reads (bench row 5, bench/RESULTS.md 2026-11-28). While the feed is still bringing a
// backlog (R17.5's `history` row: stored with the backlog's head, deleted when a pull is caught up),
// such a catch-up waits; a keyed one (a realtime message, a send: a few rows) never does. A pull that
// stops mid-way (offline) leaves the row behind: a backlog whose cursor stopped moving holds nothing.
import type { SyncDb } from '../db/schema.ts';
import type { MessageChanges } from './changes.ts';

/** How often a held catch-up looks again whether the backlog has arrived. */
export const BACKLOG_RECHECK_MS = 1000;
/** A backlog whose feed cursor has not moved for this long is not arriving (its pull stopped): nothing waits for it. */
export const BACKLOG_STALL_MS = 10_000;

/** The backlog the feed is bringing (R17.5's mark is stored), with the feed's cursor now; null: none. */
export async function backlogArriving(db: SyncDb): Promise<{ cursor: number } | null> {
  // One read transaction for both (each is one more transaction the pull's page queues behind).
  const [history, feed] = await db.meta.bulkGet(['history', 'feed']);
  if (history?.key !== 'history') return null;
  return { cursor: feed?.key === 'feed' ? feed.cursor : 0 };
}

/** Decides, check by check, whether a catch-up waits for the backlog. */
export class BacklogHold {
  private moved: { cursor: number; at: number } | null = null;

  /**
   * Whether the catch-up of `changes` waits: only a full pass, only while a backlog arrives, and only
   * while its cursor moved within BACKLOG_STALL_MS (`now`: monotonic ms).
   */
  hold(changes: MessageChanges, backlog: { cursor: number } | null, now: number): boolean {
    if (!backlog) {
      this.moved = null;
      return false;
    }
    if (this.moved?.cursor !== backlog.cursor) this.moved = { cursor: backlog.cursor, at: now };
    return 'all' in changes && now - this.moved.at < BACKLOG_STALL_MS;
  }
}

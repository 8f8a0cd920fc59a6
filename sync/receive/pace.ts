// R5.8/R5.9: pages sized by bytes, not rows. PostgREST has no byte limit, so a page is asked as a row
// count: the byte budget divided by the bytes per row measured so far. The budget starts modest and
// follows the link: each page sizes the next to the target time at the rate it measured (growing at
// most GROWTH_MAX times, R19.9), a cut halves it. Each request's deadline comes from the transfer it is expected to take; a stall
// (no byte for the stall time) aborts whatever the size.
import { PULL_PAGE_LIMIT } from '../model/constants.ts';

/** The byte budget of the first page, before anything about the link is known. */
export const FIRST_PAGE_BYTES = 64 * 1024;
/** Bytes per row assumed before the first page has told (a message of a few hundred characters). */
export const FIRST_BYTES_PER_ROW = 1024;
/** A page should take about this long at the measured rate: a cut costs at most that much transfer. */
export const TARGET_PAGE_MS = 3000;
/** Never below this many bytes, so a slow link still moves several rows per round trip. */
export const MIN_PAGE_BYTES = 8 * 1024;
/**
 * R19.9: how many times the budget may grow from one page to the next. A small page's time is mostly
 * its round trip, so the rate it measures errs low; the bound keeps one fast reply (a burst) from
 * sizing a page far beyond what the link has shown it carries.
 */
export const GROWTH_MAX = 8;
/** A page's deadline is this many times the time it is expected to take. */
const DEADLINE_FACTOR = 3;

export interface PullPlan {
  /** Rows to ask for (`p_limit`). */
  limit: number;
  /** The request's deadline: derived from the expected transfer, never below the stall time. */
  deadlineMs: number;
  stallMs: number;
}

/** What one page's transfer measured (monotonic milliseconds). */
export interface Transfer {
  startedAt: number;
  /** When the last byte so far arrived (null: none yet). */
  lastByteAt: number | null;
  bytes: number;
}

export interface PacerOptions {
  /** R9.4's request timeout: here the stall time (no byte for this long aborts). */
  stallMs: number;
  /** The most rows a page may ask for (default: sync_pull's cap, PULL_PAGE_LIMIT). */
  maxRows?: number | undefined;
  targetMs?: number;
}

export class PullPacer {
  private budget = FIRST_PAGE_BYTES;
  private bytesPerRow = FIRST_BYTES_PER_ROW;
  /** How long the last completed page took, and its bytes (null: none yet). */
  private last: { ms: number; bytes: number } | null = null;
  private readonly targetMs: number;
  private readonly maxRows: number;

  constructor(private readonly o: PacerOptions) {
    this.targetMs = o.targetMs ?? TARGET_PAGE_MS;
    this.maxRows = o.maxRows ?? PULL_PAGE_LIMIT;
  }

  plan(): PullPlan {
    const limit = Math.max(1, Math.min(this.maxRows, Math.floor(this.budget / this.bytesPerRow)));
    const expected = this.last && this.last.bytes > 0 ? (this.last.ms * limit * this.bytesPerRow) / this.last.bytes : 0;
    return { limit, deadlineMs: Math.max(this.o.stallMs, DEADLINE_FACTOR * expected), stallMs: this.o.stallMs };
  }

  /**
   * A page arrived whole with `rows` rows; `more`: the server has more after it. Only a page that
   * filled its request (more follows) says what the link carries: the feed's tail, or an empty page
   * of an idle account, is small because there was no more, and must not shrink the next backlog's pages.
   */
  completed(t: Transfer, rows: number, now: number, more = true): void {
    if (rows > 0 && t.bytes === 0) {
      // A server API that does not meter its replies (a test double, an older wrapper): nothing to
      // size by, so pages are as large as allowed, as before R5.8.
      this.budget = this.maxRows * this.bytesPerRow;
      return;
    }
    if (rows > 0 && t.bytes > 0) this.bytesPerRow = Math.max(64, t.bytes / rows);
    if (!more) return;
    const ms = Math.max(1, now - t.startedAt);
    this.last = { ms, bytes: t.bytes };
    // A page that hit the row cap says nothing about the link's limit: keep the budget the cap allows.
    // R19.9: what the link carries in the target time at the rate this page measured, growing at
    // most GROWTH_MAX times a page (doubling took a fresh device five round trips to full pages).
    const next = (t.bytes * this.targetMs) / ms;
    this.budget = this.clamp(Math.min(next, Math.max(this.budget, t.bytes) * GROWTH_MAX));
  }

  /**
   * A page was cut, stalled or ran out of time: the next is half as large, or what the bytes that did
   * arrive say the link carries in the target time if that is less.
   */
  failed(t: Transfer, now: number): void {
    let next = this.budget / 2;
    if (t.lastByteAt !== null && t.bytes > 0) {
      const rate = t.bytes / Math.max(1, now - t.startedAt);
      next = Math.min(next, rate * this.targetMs);
    }
    this.budget = this.clamp(next);
  }

  private clamp(bytes: number): number {
    return Math.max(MIN_PAGE_BYTES, Math.min(bytes, this.maxRows * this.bytesPerRow));
  }
}

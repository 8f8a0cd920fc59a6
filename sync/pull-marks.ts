// Performance measures of a pull's hops for the bench's row 5 breakdown (bench/README.md, row 5:
// `BENCH_DEBUG_SYNC=1`). One `performance.measure` per hop and page, named `poradna:pull:<hop>`;
// only in a page (Node keeps every entry in an unbounded global buffer) and bounded per name as
// sync/marks.ts bounds its marks. A measure is never a reason for a pull to fail.
import { MARKS_KEPT } from './marks.ts';

export type PullHop =
  /** The page's request, from its start to its parsed page (overlaps the previous page's apply). */
  | 'fetch'
  /** The loop waiting for the page after the previous one was stored: what the overlap did not hide. */
  | 'wait'
  /** One page's whole turn of the loop, from waiting for it to its progress told. */
  | 'page'
  /** A pull from its start to the page that said there is no more (the bench waits for it, row 5). */
  | 'caught-up'
  /** R5.11's head: its requests and its transaction; inside it, its request alone. */
  | 'head'
  | 'head-request'
  /** The page's transaction, from its call to its commit. */
  | 'apply'
  /** Inside it: the reads of stored rows the merge needs (bulkGet of the page's keys, Chatwoot ids). */
  | 'read'
  /** Inside it: the merge plan of every row, then its bulk writes. */
  | 'merge'
  | 'write'
  /** Inside it: the touched conversations' summaries (R5.1), recounted; and those kept by tally (R19.10). */
  | 'summaries'
  | 'tally'
  /** Inside it: the typing indicators the page's specialist replies clear (R7.5). */
  | 'typing'
  /** The wait for the page's transaction to start, and its callback's own time (apply − these: the commit). */
  | 'tx-open'
  | 'tx-body'
  /** Inside it: its first read answered (the transaction waited for every earlier one touching its tables). */
  | 'tx-start'
  /** R9.7's check of the page's feed identity (a read of the cursor, a transaction of its own). */
  | 'epoch';

const counts = new Map<PullHop, number>();

/** Milliseconds now on the page's clock, or null where hops are not measured (Node, tests). */
export function hopStart(): number | null {
  return typeof document === 'undefined' || typeof performance?.measure !== 'function' ? null : performance.now();
}

/** Records hop `name` from `start` (hopStart's answer) to now. */
export function pullHop(name: PullHop, start: number | null, detail?: { rows: number }): void {
  if (start === null) return;
  try {
    const full = `poradna:pull:${name}`;
    const n = (counts.get(name) ?? 0) + 1;
    if (n > MARKS_KEPT) performance.clearMeasures(full);
    counts.set(name, n > MARKS_KEPT ? 1 : n);
    performance.measure(full, { start, end: performance.now(), detail });
  } catch {
    // A measurement only.
  }
}

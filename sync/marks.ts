// Performance marks for the bench's per-hop breakdown of rows 4a/4b (bench/README.md, "Marks"). The
// names are read by bench/ and must stay exact. Only in a page (Node keeps every mark in an unbounded
// global buffer, and a headless engine runs for hours).
export type SyncMark =
  | 'poradna:send:command'
  | 'poradna:send:tx'
  | 'poradna:send:reads'
  | 'poradna:send:request'
  | 'poradna:recv:event'
  | 'poradna:recv:stored'
  | 'poradna:relay:sent'
  | 'poradna:recv:relay'
  | 'poradna:send:slow';

/** Why R1.12's fast path declined a send (early-send.ts): the send then decides in its transaction. */
export type SlowReason = 'not-solo' | 'view-untrusted' | 'send-queued' | 'conversation-unknown' | 'not-ready' | 'busy';

/** The send's steps before its request (row 4c's sub-hops): the command entered, its write transaction started, its first reads answered. */
export type SendStepMark = 'poradna:send:command' | 'poradna:send:tx' | 'poradna:send:reads';

/**
 * Marks kept per name. The page's timeline buffer is unbounded, and a chat left open for days would
 * hold every send's and arrival's marks; past this many the name's older marks are cleared (the bench
 * reads each send's marks right after it, and sends far fewer per page).
 */
export const MARKS_KEPT = 1000;
const counts = new Map<SyncMark, number>();

export function syncMark(name: SendStepMark | 'poradna:send:request' | 'poradna:relay:sent' | 'poradna:recv:relay', detail: { correlationId: string }): void;
export function syncMark(name: 'poradna:recv:event' | 'poradna:recv:stored', detail: { id: string }): void;
export function syncMark(name: 'poradna:send:slow', detail: { correlationId: string; reason: SlowReason }): void;
export function syncMark(name: SyncMark, detail: { correlationId: string } | { id: string }): void {
  if (typeof document === 'undefined' || typeof performance?.mark !== 'function') return;
  try {
    const n = (counts.get(name) ?? 0) + 1;
    if (n > MARKS_KEPT) performance.clearMarks(name);
    counts.set(name, n > MARKS_KEPT ? 1 : n);
    performance.mark(name, { detail });
  } catch {
    // A mark is a measurement, never a reason for a send or a write to fail.
  }
}

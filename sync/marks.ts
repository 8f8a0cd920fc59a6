// Performance marks for the bench's per-hop breakdown of rows 4a/4b (bench/README.md, "Marks"). The
// names are read by bench/ and must stay exact. Only in a page (Node keeps every mark in an unbounded
// global buffer, and a headless engine runs for hours).
export type SyncMark =
  | 'poradna:send:command'
  | 'poradna:send:tx'
  | 'poradna:send:reads'
  | 'poradna:send:request'
  | 'poradna:recv:event'
  | 'poradna:recv:stored';

/** The send's steps before its request (row 4c's sub-hops): the command entered, its write transaction started, its first reads answered. */
export type SendStepMark = 'poradna:send:command' | 'poradna:send:tx' | 'poradna:send:reads';

export function syncMark(name: SendStepMark | 'poradna:send:request', detail: { correlationId: string }): void;
export function syncMark(name: 'poradna:recv:event' | 'poradna:recv:stored', detail: { id: string }): void;
export function syncMark(name: SyncMark, detail: { correlationId: string } | { id: string }): void {
  if (typeof document === 'undefined' || typeof performance?.mark !== 'function') return;
  try {
    performance.mark(name, { detail });
  } catch {
    // A mark is a measurement, never a reason for a send or a write to fail.
  }
}

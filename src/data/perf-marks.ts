// Performance marks the benchmarks read (bench/README.md). Set after the frame that shows the change
// has been produced: requestAnimationFrame runs before that frame's paint, the macrotask after it.
export type PerfMark = 'poradna:first-row' | 'poradna:last-message' | 'poradna:bubble-painted';

export function markAfterPaint(name: PerfMark, detail?: string): void {
  requestAnimationFrame(() => {
    setTimeout(() => performance.mark(name, detail === undefined ? undefined : { detail }), 0);
  });
}

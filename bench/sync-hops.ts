// Row 5's per-hop breakdown (bench/README.md row 5): the measures the pull records in the page
// (sync/pull-marks.ts), read right after the initial sync, before anything navigates the page away.
// Per hop: pages, the sum, p50 and max; the pull's span from its first request to its last stored
// page; the time before it (the sign-in, the app's start). Rows 5′–5‴ come from these sums.
import type { Client } from './browser.ts';

export interface HopSummary {
  n: number;
  sumMs: number;
  p50Ms: number;
  maxMs: number;
  rows: number;
}

export interface PullHops {
  /** First request of the pull → its last page's progress told, ms. */
  spanMs: number;
  /** When the first request started, ms since the document's start. */
  firstMs: number;
  hops: Map<string, HopSummary>;
  /** Every measure in start order (BENCH_DEBUG_SYNC=2 prints them). */
  entries: Entry[];
  /** The page's requests to the stack before the pull's first (sign-in, account, app start): what precedes it. */
  before: { name: string; start: number; end: number }[];
}

interface Entry {
  name: string;
  start: number;
  duration: number;
  rows: number | null;
}

/** The pull's measures in `c`'s page; null when the build records none. */
export async function readPullHops(c: Client): Promise<PullHops | null> {
  const entries: Entry[] = await c.page.evaluate(() =>
    performance
      .getEntriesByType('measure')
      .filter((e) => e.name.startsWith('poradna:pull:'))
      .map((e) => ({ name: e.name.slice('poradna:pull:'.length), start: e.startTime, duration: e.duration, rows: ((e as PerformanceMeasure).detail as { rows?: number } | null)?.rows ?? null })),
  );
  if (entries.length === 0) return null;
  const firstMs = Math.min(...entries.map((e) => e.start));
  const before = await c.page.evaluate(
    (until) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= until && /\/(auth|rest|functions)\/v1\/|\.js$/.test(e.name))
        .map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
    firstMs,
  );
  const hops = new Map<string, HopSummary>();
  for (const n of new Set(entries.map((e) => e.name))) {
    const of = entries.filter((e) => e.name === n);
    const d = of.map((e) => e.duration).sort((a, b) => a - b);
    hops.set(n, { n: d.length, sumMs: d.reduce((a, b) => a + b, 0), p50Ms: d[Math.floor(d.length / 2)]!, maxMs: d[d.length - 1]!, rows: of.reduce((a, e) => a + (e.rows ?? 0), 0) });
  }
  return { spanMs: Math.max(...entries.map((e) => e.start + e.duration)) - firstMs, firstMs, hops, entries: entries.sort((a, b) => a.start - b.start), before };
}

export function formatPullHops(h: PullHops | null): string[] {
  if (!h) return ['row 5 hops: no pull measures in the page (a build without sync/pull-marks.ts)'];
  const lines = [`row 5 hops: pull span ${Math.round(h.spanMs)} ms (first request at ${Math.round(h.firstMs)} ms of the document)`];
  for (const [n, s] of h.hops) {
    lines.push(`  ${n.padEnd(10)} n=${String(s.n).padStart(3)} sum ${Math.round(s.sumMs).toString().padStart(6)} ms  p50 ${s.p50Ms.toFixed(1).padStart(7)}  max ${s.maxMs.toFixed(1).padStart(7)}  rows ${s.rows}`);
  }
  // What the page asked before the pull's first request (ms of the document): sign-in, account, chunks.
  for (const b of h.before) lines.push(`  before ${b.start.toFixed(0).padStart(6)} → ${b.end.toFixed(0).padStart(6)} ${b.name}`);
  if (process.env.BENCH_DEBUG_SYNC === '2') {
    for (const e of h.entries) lines.push(`    ${(e.start - h.firstMs).toFixed(0).padStart(6)} +${e.duration.toFixed(1).padStart(7)} ${e.name}${e.rows === null ? '' : ` rows ${e.rows}`}`);
  }
  return lines;
}

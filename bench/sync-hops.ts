// Row 5's per-hop breakdown (BENCH_DEBUG_SYNC=1, bench/README.md row 5): the measures the pull
// records in the page (sync/pull-marks.ts), read right after the initial sync, before anything
// navigates the page away. Per hop: pages, the sum, p50 and max; the pull's span from its first
// request to its last stored page; the time before it (the sign-in, the app's start).
import type { Client } from './browser.ts';

interface Entry {
  name: string;
  start: number;
  duration: number;
  rows: number | null;
}

export async function syncHops(c: Client): Promise<string[]> {
  const entries: Entry[] = await c.page.evaluate(() =>
    performance
      .getEntriesByType('measure')
      .filter((e) => e.name.startsWith('poradna:pull:'))
      .map((e) => ({ name: e.name.slice('poradna:pull:'.length), start: e.startTime, duration: e.duration, rows: ((e as PerformanceMeasure).detail as { rows?: number } | null)?.rows ?? null })),
  );
  if (entries.length === 0) return ['row 5 hops: no pull measures in the page (a build without sync/pull-marks.ts?)'];
  const first = Math.min(...entries.map((e) => e.start));
  const last = Math.max(...entries.map((e) => e.start + e.duration));
  const lines = [`row 5 hops: pull span ${Math.round(last - first)} ms (first request at ${Math.round(first)} ms of the document)`];
  const names = [...new Set(entries.map((e) => e.name))];
  for (const n of names) {
    const d = entries.filter((e) => e.name === n).map((e) => e.duration).sort((a, b) => a - b);
    const sum = d.reduce((a, b) => a + b, 0);
    const rows = entries.filter((e) => e.name === n).reduce((a, e) => a + (e.rows ?? 0), 0);
    lines.push(`  ${n.padEnd(10)} n=${String(d.length).padStart(3)} sum ${Math.round(sum).toString().padStart(6)} ms  p50 ${d[Math.floor(d.length / 2)]!.toFixed(1).padStart(7)}  max ${d[d.length - 1]!.toFixed(1).padStart(7)}  rows ${rows}`);
  }
  return lines;
}

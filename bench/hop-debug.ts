// BENCH_DEBUG_HOPS=1 (bench/README.md, row 4): one line per send of row 4 — its total, its path
// hops, and every API request (PostgREST or an edge function) either client of the build started from the previous send's Enter to
// this send's paint (ms relative to this Enter) — so a slow send can be read against what else the
// clients were doing then (mark-reads, pulls), instead of only the percentiles of each hop.
import type { RequestSpan, Stamps } from './hops.ts';

const r = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');

export function hopDebugLines(label: string, stamps: Stamps[], spans: readonly RequestSpan[]): string[] {
  const lines = [`${label}: total | request commit notify sent frame painted (hops, ms) | API requests of A or B (start → end, ms from Enter)`];
  stamps.forEach((s, i) => {
    const from = i > 0 ? stamps[i - 1]!.enter : s.enter - 1000;
    const reqs = spans
      .filter((x) => x.start >= from && x.start <= s.painted && !(x.path === '/rpc/send_message' && Math.abs(x.start - s.request) < 1))
      .map((x) => `${x.path.replace('/rpc/', '')} ${r(x.start - s.enter)}→${r(x.end - s.enter)}`);
    const hops = [s.request - s.enter, s.commit - s.request, s.notified - s.commit, s.sent - s.notified, s.frame - s.sent, s.painted - s.frame];
    lines.push(`${label} #${i} ${r(s.painted - s.enter)} | ${hops.map(r).join(' ')} | ${reqs.join(', ') || '—'}`);
  });
  return lines;
}

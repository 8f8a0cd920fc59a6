// Row 11 (issue 35): a backlog caught up on an emulated slow phone link (sync/testing/link.ts), the
// engine headless against the bench's own stack, against the link's transfer floor (bytes on the wire
// ÷ bandwidth + one round trip per page). Scaled down from the 5,000 × 2,500 characters at
// 1.6 Mbps and 2,000 × 600 at 400 kbps with the same bytes per row and link speeds.
import pg from 'pg';
import type { TestStack } from '../tests/helpers/stack.ts';
import { catchUp, type LinkCase } from '../tests/sync/helpers/catch-up.ts';
import type { BenchRow } from './table.ts';

const GOAL = 1.3;

export async function slowLinkRows(stack: TestStack, quick: boolean): Promise<BenchRow[]> {
  const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  db.on('error', (err) => console.warn(`row 11: database connection: ${err.message}`));
  const cases: (LinkCase & { row: string; label: string })[] = [
    { row: '11a', label: '1.6 Mbps / 150 ms', tag: 'bench-slow16', n: quick ? 300 : 1000, chars: 2500, bytesPerSecond: 200_000, rttMs: 150 },
    { row: '11b', label: '400 kbps / 150 ms', tag: 'bench-slow4', n: quick ? 200 : 500, chars: 600, bytesPerSecond: 50_000, rttMs: 150 },
  ];
  const rows: BenchRow[] = [];
  try {
    for (const c of cases) {
      const r = await catchUp({ url: stack.url, anonKey: stack.keys.anonKey }, db, stack.keys.jwtSecret, c);
      await r.phone.stop();
      rows.push({
        row: c.row,
        figure: `catch-up of ${c.n} × ${c.chars} characters on ${c.label}, headless engine (baseline: the link's transfer floor, ${r.pulls.length} pages)`,
        poradna: r.ms,
        baseline: r.floorMs,
        unit: 'ms',
        better: 'lower',
        goal: `≤ ${GOAL}× the floor`,
        met: r.ms / r.floorMs <= GOAL,
      });
    }
  } finally {
    await db.end();
  }
  return rows;
}

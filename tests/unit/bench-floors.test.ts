// Row 4's floor column and missed-goal lines (bench/hops.ts): pure formatting of figures the bench
// measured, checked here so a wrong subtraction or ordering cannot hide in a noisy run.
import { describe, expect, it } from 'vitest';
import { missedGoalLines, renderHops, type HopKey, type Stamps } from '../../bench/hops.ts';
import type { BenchRow } from '../../bench/table.ts';

const s = (k: number): Stamps => ({
  enter: 0,
  command: NaN,
  tx: NaN,
  reads: NaN,
  request: 20 * k,
  wire: NaN,
  commit: 30 * k,
  notified: 32 * k,
  sent: 40 * k,
  frame: 41 * k,
  event: NaN,
  stored: 50 * k,
  relaySent: NaN,
  relayFrame: NaN,
  relayed: NaN,
  painted: 60 * k,
});

const floors = new Map<HopKey, number[]>([
  ['enter→request', [1, 1]],
  ['request→commit', [5, 5]],
  ['commit→notified', [1, 1]],
  ['notified→sent', [2, 2]],
  ['sent→frame', [0.5, 0.5]],
  ['frame→painted', [4, 4]],
]);

const row = (r: string, poradna: number, met = false): BenchRow => ({ row: r, figure: '', poradna, baseline: 0, unit: 'ms', better: 'lower', goal: 'g', met });

describe('row 4 floors', () => {
  it('prints each hop floor next to the builds and the sum of the path floors as the total', () => {
    const out = renderHops([s(1), s(1)], [s(1), s(1)], floors);
    const line = (label: string) => out.split('\n').find((l) => l.includes(label))!;
    expect(out.split('\n')[0]).toContain('| floor (same run) |');
    expect(line('Enter on A →')).toBe('| Enter on A → A’s send_message request started | 20.0 / 20.0 ms | 20.0 / 20.0 ms | 1.0 / 1.0 ms |');
    expect(line('(poradna:recv:stored)')).toContain('| — |');
    expect(line('total:')).toContain('| Σ 13.5 / 13.5 ms (database path) |');
    expect(line('painted on B from the relay')).toContain('| 0/2 | 0/2 |');
  });

  it('R6.8 a relayed send runs along the relay path: its hops, its share, the row frame’s paint hop left out', () => {
    // Relayed: pushed at 3, its frame on B at 5, handed over at 6, painted at 15 — before the row's
    // frame (41), whose paint hop then means nothing and is not shown for it.
    const relayed = (k: number): Stamps => ({ ...s(1), relaySent: 3 * k, relayFrame: 5 * k, relayed: 6 * k, painted: 15 * k });
    const out = renderHops([relayed(1), relayed(1)], [s(1), s(1)], floors);
    const line = (label: string) => out.split('\n').find((l) => l.includes(label))!;
    expect(line('pushed on A’s socket')).toContain('| 3.0 / 3.0 ms | — | — |');
    expect(line('relay frame received on B')).toContain('| 2.0 / 2.0 ms | — | — |');
    // The relay frame's paint is the same work as the row frame's: the same floor.
    expect(line('relay frame on B → text painted')).toContain('| 10.0 / 10.0 ms | — | 4.0 / 4.0 ms |');
    expect(line('frame received on B → text painted on B')).toContain('| — | 19.0 / 19.0 ms |');
    expect(line('painted on B from the relay')).toContain('| 2/2 | 0/2 |');
    const lines = missedGoalLines([row('4a', 15)], [relayed(1)], [s(1)], floors);
    // The relay hops without a floor of their own count 0 in the sum (a lower bound).
    expect(lines[0]).toMatch(/^- 4a missed \(15\.0 ms; goal g\); the relay path \(R6\.8\)'s floor Σ p50 4\.0 ms; p50 per hop, furthest from its floor first: … relay frame on B → text painted on B 10\.0 ms \(floor 4\.0, \+6\.0\)$/);
  });

  it('pins a missed goal to the hops furthest above their floor, and skips met goals', () => {
    const lines = missedGoalLines([row('4a', 60), row('4b', 60, true), row('4c', 20)], [s(1)], [s(1)], floors);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^- 4a missed \(60\.0 ms; goal g\); the path's floor Σ p50 13\.5 ms/);
    // Enter → request is 20 ms over a 1 ms floor (+19): the largest distance comes first.
    expect(lines[0]).toMatch(/first: Enter on A → A’s send_message request started 20\.0 ms \(floor 1\.0, \+19\.0\); frame received on B → text painted on B 19\.0 ms \(floor 4\.0, \+15\.0\)/);
    expect(lines[1]).toBe('- 4c missed (20.0 ms; goal g); held by Enter on A → A’s send_message request started 20.0 ms (floor 1.0, +19.0)');
  });
});

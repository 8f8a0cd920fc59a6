// scripts/test-timings.mjs vitestIdle: the seconds of a Vitest run with no file running, where its
// worker starts, imports and environments show (a file's own time leaves them out; session 46).
import { describe, expect, it } from 'vitest';
import { vitestIdle } from '../../scripts/test-timings.mjs';

const at = (startS: number, endS: number) => ({ startTime: 1_000_000 + startS * 1000, endTime: 1_000_000 + endS * 1000 });

describe('Vitest idle time', () => {
  it('counts the time before the first file, the gaps with no file running and the time with one', () => {
    // 0–60 nothing; 60–100 one file; 100–150 two; 150–170 one; 170–180 nothing; 180–190 one; 190–195 nothing; 195–200 one
    const report = { startTime: 1_000_000, testResults: [at(60, 150), at(100, 170), at(180, 190), at(195, 200)] };
    expect(vitestIdle(report)).toEqual({ beforeFirst: 60, between: 15, one: 40 + 20 + 10 + 5, end: 200 });
  });

  it('does not count a file that starts inside another as a gap, whatever the order of the report', () => {
    const report = { startTime: 1_000_000, testResults: [at(20, 30), at(10, 100), at(110, 120)] };
    expect(vitestIdle(report)).toEqual({ beforeFirst: 10, between: 10, one: 10 + 70 + 10, end: 120 });
  });

  it('answers zeros for a run with no file', () => {
    expect(vitestIdle({ startTime: 5, testResults: [] })).toEqual({ beforeFirst: 0, between: 0, one: 0, end: 0 });
  });
});

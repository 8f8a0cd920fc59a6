// scripts/e2e-shards.mjs: the journeys' shards dealt by measured time (issue 42).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { durationsFromReport, journeyFiles, splitByTime, writeShardLists, type Shard } from '../../scripts/e2e-shards.mjs';

describe('e2e shards by time', () => {
  it('deals the longest files first to the emptier shard: every file once, the sums close', () => {
    const seconds = { 'a.e2e.ts': 70, 'b.e2e.ts': 60, 'c.e2e.ts': 10, 'd.e2e.ts': 10, 'e.e2e.ts': 50, 'f.e2e.ts': 5 };
    const files = Object.keys(seconds);
    const shards: Shard[] = splitByTime(files, seconds, 2);
    expect(shards.flatMap((s) => s.files).sort()).toEqual(files.sort());
    expect(shards.map((s) => s.seconds)).toEqual([95, 110]); // the best split of these times
    // Playwright's --shard=1/2 would cut by count in name order: a, b, c | d, e, f = 140 against 65.
    expect(shards[0]!.files).toEqual(['a.e2e.ts', 'c.e2e.ts', 'd.e2e.ts', 'f.e2e.ts']);
  });

  it('counts a file missing from the table as the median, so a new journey still runs in one shard', () => {
    const shards: Shard[] = splitByTime(['x.e2e.ts', 'y.e2e.ts', 'new.e2e.ts'], { 'x.e2e.ts': 30, 'y.e2e.ts': 10 }, 2);
    expect(shards.flatMap((s) => s.files).sort()).toEqual(['new.e2e.ts', 'x.e2e.ts', 'y.e2e.ts']);
    expect(shards.map((s) => s.seconds).sort((a, b) => a - b)).toEqual([30, 40]);
  });

  it('reads the first attempts per file from a Playwright JSON report (a retry is not the file time)', () => {
    const report = {
      suites: [
        { file: 'a.e2e.ts', specs: [{ tests: [{ results: [{ retry: 0, duration: 4000 }, { retry: 1, duration: 9000 }] }] }], suites: [{ specs: [{ tests: [{ results: [{ retry: 0, duration: 1500 }] }] }] }] },
        { file: 'b.e2e.ts', specs: [{ tests: [{ results: [{ retry: 0, duration: 2000 }] }] }] },
      ],
    };
    expect(durationsFromReport(report)).toEqual({ 'a.e2e.ts': 5.5, 'b.e2e.ts': 2 });
  });

  it('writes one Playwright test list per shard, one journey file per line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shards-'));
    const e2e = join(dir, 'e2e');
    mkdirSync(join(e2e, 'sub'), { recursive: true });
    for (const f of ['a.e2e.ts', 'b.e2e.ts', 'sub/c.e2e.ts', 'helpers.ts']) writeFileSync(join(e2e, f), '');
    expect(journeyFiles(e2e)).toEqual(['a.e2e.ts', 'b.e2e.ts', 'sub/c.e2e.ts']);
    const lists = writeShardLists(2, join(dir, 'out'), { e2eDir: e2e, durations: { 'a.e2e.ts': 9, 'b.e2e.ts': 4, 'sub/c.e2e.ts': 4 } });
    const lines = lists.map((l) => readFileSync(l.path, 'utf8').split('\n').filter((x) => x && !x.startsWith('#')));
    expect(lines).toEqual([['a.e2e.ts'], ['b.e2e.ts', 'sub/c.e2e.ts']]);
  });
});

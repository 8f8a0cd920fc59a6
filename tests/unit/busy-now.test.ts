// scripts/busy-now.mjs: what the machine is doing as the timing step starts (printed by npm test).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { busiest, busyNow, cpuTicks } from '../../scripts/busy-now.mjs';

// /proc/<pid>/stat as proc(5) lays it out: utime and stime are fields 14 and 15, starttime field 22.
const stat = (pid: number, comm: string, utime: number, stime: number, start: number) =>
  `${pid} (${comm}) S 1 ${pid} ${pid} 0 -1 4194304 100 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 ${start} 1000 10 18446744073709551615`;

describe('busy now', () => {
  it('reads each process’s name and user + system ticks, a name with spaces and parentheses included', () => {
    const proc = mkdtempSync(join(tmpdir(), 'busy-now-'));
    for (const [pid, comm, u, s, start] of [[10, 'postgres', 300, 50, 4000], [11, 'node (vitest 1)', 7, 3, 4100]] as const) {
      mkdirSync(join(proc, String(pid)));
      writeFileSync(join(proc, String(pid), 'stat'), stat(pid, comm, u, s, start));
    }
    mkdirSync(join(proc, 'self'));
    expect([...cpuTicks(proc)]).toEqual([
      ['10', { comm: 'postgres', start: 4000, ticks: 350 }],
      ['11', { comm: 'node (vitest 1)', start: 4100, ticks: 10 }],
    ]);
  });

  it('sums the CPU each name used between the samples as a share of a core, busiest first', () => {
    const before = new Map([
      ['1', { comm: 'postgres', start: 10, ticks: 1000 }],
      ['2', { comm: 'postgres', start: 20, ticks: 500 }],
      ['3', { comm: 'chromium', start: 30, ticks: 40 }],
      ['4', { comm: 'node', start: 40, ticks: 9 }],
      ['6', { comm: 'kworker/u8:2-events', start: 1, ticks: 5000 }],
    ]);
    const after = new Map([
      ['1', { comm: 'postgres', start: 10, ticks: 1030 }], // 30 ticks
      ['2', { comm: 'postgres', start: 20, ticks: 520 }], // 20 ticks
      ['3', { comm: 'chromium', start: 30, ticks: 40 }], // idle
      ['5', { comm: 'rm', start: 90, ticks: 80 }], // new since the first sample: all its ticks
      ['4', { comm: 'sh', start: 95, ticks: 12 }], // the pid now another process's: counted from zero
      ['6', { comm: 'kworker/u8:2-mm_percpu_wq', start: 1, ticks: 5005 }], // renamed, the same process: 5 ticks
    ]);
    expect(busiest(before, after, 1)).toEqual([
      { comm: 'rm', percent: 80 },
      { comm: 'postgres', percent: 50 },
      { comm: 'sh', percent: 12 },
      { comm: 'kworker/u8:2-mm_percpu_wq', percent: 5 },
    ]);
    expect(busiest(before, after, 2, { top: 1 })).toEqual([{ comm: 'rm', percent: 40 }]);
  });

  it('says the load and what was busy on this machine', async () => {
    expect(await busyNow(100)).toMatch(/^load \d+\.\d\d \d+\.\d\d \d+\.\d\d; over 0\.1 s: (nothing busy|.+ \d+ %)/);
  });
});

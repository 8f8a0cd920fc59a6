// What the machine is doing right now: the load average and the processes that used the CPU over a
// short sample, read from /proc (Linux). `npm test` prints it as the timing step starts (scripts/test.mjs):
// that step's bounds assume a machine doing nothing else, and session 45's run had R9.1's 2 s drain at
// 1,700 ms with the step alone (491–945 ms before, 464–521 ms in runs right after), with nothing to say
// what else was running then.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * Each process's name, start (ticks after boot) and CPU time so far (user + system, in clock ticks), by
 * pid. The start tells a pid used again by another process from the same process renamed (kernel
 * workers rename themselves after their queue).
 */
export function cpuTicks(proc = '/proc') {
  const ticks = new Map();
  for (const pid of readdirSync(proc)) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
      // The name is in parentheses and may itself hold spaces or parentheses: fields follow the last ')'.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, { comm, start: Number(fields[19]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return ticks;
}

/**
 * The CPU each process name used between two samples, as a share of one core over `seconds`, the
 * busiest first (`top` names at most), by the name it has in the second. A process that started after
 * the first sample counts from zero.
 */
export function busiest(before, after, seconds, { hz = 100, top = 8 } = {}) {
  const byName = new Map();
  for (const [pid, { comm, start, ticks }] of after) {
    const was = before.get(pid);
    const used = ticks - (was?.start === start ? was.ticks : 0);
    if (used > 0) byName.set(comm, (byName.get(comm) ?? 0) + used);
  }
  return [...byName]
    .map(([comm, used]) => ({ comm, percent: Math.round((100 * used) / hz / seconds) }))
    .filter((p) => p.percent > 0)
    .sort((a, b) => b.percent - a.percent)
    .slice(0, top);
}

/** One line: the load average and the busiest processes over `ms`. */
export async function busyNow(ms = 1000) {
  const before = cpuTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTicks();
  const busy = busiest(before, after, ms / 1000);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `load ${load}; over ${ms / 1000} s: ${busy.map((p) => `${p.comm} ${p.percent} %`).join(', ') || 'nothing busy'}`;
}

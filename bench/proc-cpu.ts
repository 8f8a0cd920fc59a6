// CPU seconds of processes read from /proc (Linux only; 0 elsewhere): rows 10a and 10c say where each
// request's or delivery's time goes, which throughput alone on a shared 2-core machine does not.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process has used so far; 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return -1;
  }
}

/** PostgreSQL's CPU seconds: the postmaster and every backend it forked (children only, one level). */
export function postgresCpuSeconds(postmasterPid: number): number {
  let total = 0;
  try {
    for (const d of readdirSync('/proc')) {
      const pid = Number(d);
      if (Number.isInteger(pid) && (pid === postmasterPid || parentOf(pid) === postmasterPid)) total += cpuSeconds(pid);
    }
  } catch {
    /* no /proc */
  }
  return total;
}

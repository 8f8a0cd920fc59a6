// CPU seconds of processes read from /proc (Linux only; 0 elsewhere): rows 10a and 10c say where each
// request's or delivery's time goes, which throughput alone on a shared 2-core machine does not.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far; 0 when it is gone. With `reaped`, also its
 * children that ended and were waited for (cutime + cstime), so work of short-lived children is not
 * lost between two readings.
 */
export function cpuSeconds(pid: number, reaped = false): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) / 100;
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

/**
 * PostgreSQL's CPU seconds: the postmaster with its ended backends (which the postmaster reaps, so
 * their time is in its cutime/cstime) and every live backend. Without the ended ones, a backend that
 * exited between two readings took its CPU with it (row 10c read negative PostgreSQL time).
 */
export function postgresCpuSeconds(postmasterPid: number): number {
  let total = cpuSeconds(postmasterPid, true) - cpuSeconds(postmasterPid);
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

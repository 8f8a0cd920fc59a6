// Remembers the processes a stack started in DATA_DIR/stack.pids so that a later start can clean up
// after a stack that was killed with SIGKILL (its PostgreSQL and PostgREST would otherwise be orphaned).
// Invariant: we only ever kill a recorded pid when the stack process that recorded it is gone.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface PidFile {
  stack: number;
  children: number[];
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

/** DATA_DIRs owned by stacks running in this very process (the pid file cannot tell those apart). */
const ownedHere = new Set<string>();

export class ProcessRegistry {
  private readonly file: string;
  private children: number[] = [];
  /** After clear() the stack is gone: a late exit of one of its children writes no pid file again. */
  private cleared = false;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'stack.pids');
  }

  /** Kills leftovers of a crashed stack; fails if another live stack owns this DATA_DIR. */
  async reclaim(): Promise<'clean' | 'reclaimed' | { inUseBy: number }> {
    if (ownedHere.has(this.file)) return { inUseBy: process.pid };
    const result = await this.reclaimFromFile();
    if (result === 'clean' || result === 'reclaimed') ownedHere.add(this.file);
    return result;
  }

  private async reclaimFromFile(): Promise<'clean' | 'reclaimed' | { inUseBy: number }> {
    let prev: PidFile;
    try {
      prev = JSON.parse(await readFile(this.file, 'utf8')) as PidFile;
    } catch {
      return 'clean';
    }
    if (prev.stack !== process.pid && alive(prev.stack)) return { inUseBy: prev.stack };
    for (const pid of prev.children) {
      if (!alive(pid)) continue;
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      if (!(await waitGone(pid, 5000))) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
        await waitGone(pid, 2000);
      }
    }
    await rm(this.file, { force: true });
    return 'reclaimed';
  }

  async add(pid: number | undefined): Promise<void> {
    if (!pid) return;
    this.children.push(pid);
    await this.write();
  }

  async remove(pid: number | undefined): Promise<void> {
    this.children = this.children.filter((p) => p !== pid);
    await this.write();
  }

  /**
   * Last resort when the stack's process exits without an orderly stop (an uncaught error, a forced
   * exit): synchronous, as 'exit' handlers must be. PostgreSQL gets SIGTERM (it shuts down once its
   * clients are gone), everything else SIGKILL.
   */
  killSync(postgresPid: number | undefined): void {
    for (const pid of this.children) {
      if (!alive(pid)) continue;
      try {
        process.kill(pid, pid === postgresPid ? 'SIGTERM' : 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }

  async clear(): Promise<void> {
    this.cleared = true;
    ownedHere.delete(this.file);
    await rm(this.file, { force: true });
  }

  private async write(): Promise<void> {
    if (this.cleared) return;
    const data: PidFile = { stack: process.pid, children: this.children };
    await writeFile(this.file, JSON.stringify(data));
  }
}

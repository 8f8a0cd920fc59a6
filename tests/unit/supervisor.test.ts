// The stack's supervisor (supabase/local/supervisor.ts) and pid file (process-registry.ts) in a test
// run live in Vitest's main process, where one unhandled rejection ends the whole run without its
// report (stop 49's CI run: Vitest failed after 244 s with no JSON and no named test).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessRegistry } from '../../supabase/local/process-registry.ts';
import { Supervisor, type ChildRun } from '../../supabase/local/supervisor.ts';

const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => unhandled.push(err);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

/** Lets every pending callback and I/O completion run. */
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('supervisor', () => {
  it('an onDown that fails after a watched exit is logged, never an unhandled rejection', async () => {
    // Vitest's own handler would report the rejection as an error of this file; a listener of ours
    // sees it first either way.
    process.on('unhandledRejection', onUnhandled);
    const logs: string[] = [];
    let exit!: (code: number | null) => void;
    const run: ChildRun = { pid: 1, exited: new Promise((r) => (exit = r)) };
    const sup = new Supervisor({
      name: 'PostgREST',
      log: (l) => logs.push(l),
      start: () => Promise.reject(new Error('not in this test')),
      onDown: () => Promise.reject(new Error("ENOENT: no such file or directory, open '/tmp/gone/stack.pids'")),
    });
    sup.watch(run);
    await sup.stop();
    exit(0);
    await settle();
    expect(unhandled).toEqual([]);
    expect(logs).toEqual([expect.stringMatching(/^PostgREST: after its exit: ENOENT/)]);
  });
});

describe('process registry', () => {
  it('writes no pid file after clear(): a child exiting after the stack stopped leaves nothing behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'registry-'));
    try {
      const reg = new ProcessRegistry(dir);
      await reg.add(101);
      expect(JSON.parse(await readFile(join(dir, 'stack.pids'), 'utf8')).children).toEqual([101]);
      await reg.clear();
      await reg.remove(101);
      await expect(readFile(join(dir, 'stack.pids'), 'utf8')).rejects.toThrow(/ENOENT/);
      // And in a DATA_DIR already deleted by the test's teardown: no error at all.
      await rm(dir, { recursive: true, force: true });
      await expect(reg.remove(101)).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

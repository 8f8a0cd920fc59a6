// The fuzz's per-seed bound (tests/sync/helpers/seed-lanes.ts): a seed that never ends is reported
// with where it stood and what the stack was doing, and the rest of its batch is not started, so a
// batch fails within its own bound saying why (stop 57's CI: five batches ran into their bound with
// nothing said).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeedProgress, SeedResult } from '../../sync/helpers/fuzz-run.ts';
import { runLanes, startLanes } from '../../sync/helpers/seed-lanes.ts';

const done = (seed: number, ms = 0): Promise<SeedResult> =>
  new Promise((r) => setTimeout(() => r({ seed, ok: true, problems: [], ops: [`op of ${seed}`], ms, faults: {}, typed: 1, healMs: 0 }), ms));

describe('fuzz seed lanes', () => {
  afterEach(() => vi.useRealTimers());

  // On fake timers: with real ones, an event loop stalled past 150 ms (a loaded CI machine, stop 59)
  // let seed 3's own 150 ms bound fire in the same pass as seed 2's, before seed 3's 100 ms end,
  // because Node runs every due timer of one duration before the next duration's.
  it('a seed that never ends is reported held with its phase, the awaited step and the diagnosis; no later seed starts', async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    let ended = false;
    const lanes = runLanes([1, 2, 3, 4, 5, 6], {
      parallel: 2,
      limitMs: 150,
      run: (seed: number, progress: SeedProgress) => {
        started.push(seed);
        if (seed !== 2) return done(seed, 100);
        Object.assign(progress, { phase: 'steps', since: Date.now() });
        progress.ops.push('u1 send 7a', 'u3 archive 14a0');
        return new Promise<SeedResult>(() => {}); // waits for something that will not come
      },
      diagnose: async () => ['database: 1 busy connections'],
    }).finally(() => (ended = true));
    // Lane 1 runs seed 1 (0–100 ms), then seed 3 (100–200 ms) while seed 2 holds lane 2.
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual([1, 2, 3]);
    // Seed 2 is given up on at 150 ms, so lane 1 ends after seed 3 and seeds 4–6 never start.
    await vi.advanceTimersByTimeAsync(100);
    // Ended at the seed's bound, not the held seed's end (never).
    expect(ended).toBe(true);
    const { results, notStarted } = await lanes;
    const heldSeed = results.find((r) => r.seed === 2)!;
    expect(heldSeed).toMatchObject({ ok: false, held: true, ops: ['u1 send 7a', 'u3 archive 14a0'] });
    expect(heldSeed.problems[0]).toMatch(/^did not end within 0\.15 s: in steps for 0 s$/);
    expect(heldSeed.problems.slice(1)).toEqual(['awaiting: u3 archive 14a0', 'database: 1 busy connections']);
    expect(started).toEqual([1, 2, 3]);
    expect(results.filter((r) => r.ok).map((r) => r.seed)).toEqual([1, 3]);
    expect(notStarted).toEqual([4, 5, 6]);
  });

  it('a slow seed leaves no lane idle: the next batch\'s seeds run while it does (issue 42, session 53)', async () => {
    vi.useFakeTimers();
    const ends = new Map<number, number>();
    // Batch one is seeds 1–2, batch two 3–4; seed 1 takes 300 ms, the others 50.
    const lanes = startLanes([1, 2, 3, 4], {
      parallel: 2,
      limitMs: 5_000,
      run: (seed) => done(seed, seed === 1 ? 300 : 50).then((r) => (ends.set(seed, Date.now()), r)),
      diagnose: async () => [],
    });
    const t0 = Date.now();
    const batchOne = Promise.all([lanes.result(1), lanes.result(2)]);
    await vi.advanceTimersByTimeAsync(300);
    expect((await batchOne).map((r) => r?.seed)).toEqual([1, 2]);
    // Seeds 3 and 4 ran one after the other in lane two while seed 1 held lane one.
    expect([ends.get(3)! - t0, ends.get(4)! - t0]).toEqual([100, 150]);
    expect((await Promise.all([lanes.result(3), lanes.result(4)])).map((r) => r?.ok)).toEqual([true, true]);
    await lanes.done;
    await expect(lanes.result(5)).rejects.toThrow('seed 5 is not in these lanes');
  });

  it('after a held seed every later seed, of any batch, answers null (not started)', async () => {
    const lanes = startLanes([1, 2, 3], {
      parallel: 1,
      limitMs: 30,
      run: (seed) => (seed === 1 ? new Promise<SeedResult>(() => {}) : done(seed)),
      diagnose: async () => [],
    });
    expect((await lanes.result(1))?.held).toBe(true);
    expect(await Promise.all([lanes.result(2), lanes.result(3)])).toEqual([null, null]);
  });

  it('seeds that end are returned as they ran, every one of them, with nothing left unstarted', async () => {
    const { results, notStarted } = await runLanes([1, 2, 3, 4, 5], {
      parallel: 3,
      limitMs: 5_000,
      run: (seed) => done(seed, 5 * seed),
      diagnose: async () => {
        throw new Error('not asked when nothing is held');
      },
    });
    expect(results.map((r) => r.seed).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(results.every((r) => r.ok && r.held === undefined)).toBe(true);
    expect(notStarted).toEqual([]);
  });

  it('a failed diagnosis is said, not thrown, and a seed held in set-up names no awaited step', async () => {
    const { results } = await runLanes([9], {
      parallel: 1,
      limitMs: 50,
      run: () => new Promise<SeedResult>(() => {}),
      diagnose: async () => {
        throw new Error('connection refused');
      },
    });
    expect(results).toHaveLength(1);
    expect(results[0]!.problems[0]).toMatch(/^did not end within 0\.05 s: in set-up for 0 s$/);
    expect(results[0]!.problems.slice(1)).toEqual(['diagnosis failed: Error: connection refused']);
  });
});

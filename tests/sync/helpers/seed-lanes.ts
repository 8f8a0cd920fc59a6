// How the fuzz files run their seeds (helpers/fuzz-file.ts): `parallel` lanes taking seeds from one
// queue, each seed bounded in time. A seed that has not ended after `limitMs` is waiting for something
// that will not come: it is reported as held, with where it stood (SeedProgress) and what `diagnose`
// finds (the database's busy connections, a probe of the stack), and no further seed is started,
// because what held it is likely to hold them too; the batch then fails within its own bound, saying
// why, instead of at it. The held seed's promise is not cancelled (nothing in it can be), only no
// longer awaited. `runLanes` (all seeds at once) is what the unit tests drive.
// Kept apart from the stack so the bound itself is tested (tests/unit/sync/seed-lanes.test.ts).
import type { SeedProgress, SeedResult } from './fuzz-run.ts';

export interface LaneOptions {
  parallel: number;
  limitMs: number;
  /** Runs one seed, keeping `progress` current. */
  run: (seed: number, progress: SeedProgress) => Promise<SeedResult>;
  /** Lines saying what the stack was doing when a seed was given up on. */
  diagnose: () => Promise<string[]>;
}

export interface LaneResults {
  results: SeedResult[];
  /** Seeds never started because one before them was held. */
  notStarted: number[];
}

/** What is reported for a seed given up on after `limitMs`. */
async function held(seed: number, progress: SeedProgress, t0: number, opts: LaneOptions): Promise<SeedResult> {
  const problems = [`did not end within ${opts.limitMs / 1000} s: in ${progress.phase} for ${Math.round((Date.now() - progress.since) / 1000)} s`];
  if (progress.phase === 'steps') problems.push(`awaiting: ${progress.ops.at(-1) ?? '(the first step)'}`);
  problems.push(...(await opts.diagnose().catch((err: unknown) => [`diagnosis failed: ${String(err)}`])));
  return { seed, ok: false, held: true, problems, ops: [...progress.ops], ms: Date.now() - t0, faults: {}, typed: 0, healMs: -1 };
}

async function runBounded(seed: number, opts: LaneOptions): Promise<SeedResult> {
  const t0 = Date.now();
  const progress: SeedProgress = { phase: 'set-up', since: t0, ops: [] };
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'limit'>((resolve) => (timer = setTimeout(() => resolve('limit'), opts.limitMs)));
  const first = await Promise.race([opts.run(seed, progress), limit]);
  clearTimeout(timer);
  return first === 'limit' ? held(seed, progress, t0, opts) : first;
}

/** Lanes started over a queue of seeds; each seed's result is asked for on its own. */
export interface Lanes {
  /** The seed's result once it has ended or been given up on; null if it was never started (a seed before it was held). */
  result(seed: number): Promise<SeedResult | null>;
  /** Settles once every started seed ended or was given up on. */
  done: Promise<void>;
}

/**
 * Starts `seeds` (in their order, each once) in `opts.parallel` lanes. A lane takes the next seed as
 * soon as its own has ended, whoever asks for which result when: the fuzz's batches are read one after
 * another, but a batch's slowest seed no longer leaves the other lanes idle until it ends (issue 42,
 * session 53). After a held seed no further seed starts.
 */
export function startLanes(seeds: number[], opts: LaneOptions): Lanes {
  const queue = [...new Set(seeds)];
  const settle = new Map<number, (r: SeedResult | null) => void>();
  const results = new Map(queue.map((seed) => [seed, new Promise<SeedResult | null>((r) => settle.set(seed, r))]));
  let stop = false;
  const done = Promise.all(
    Array.from({ length: opts.parallel }, async () => {
      while (!stop && queue.length) {
        const seed = queue.shift()!;
        const r = await runBounded(seed, opts);
        stop ||= r.held === true;
        settle.get(seed)!(r);
      }
    }),
  ).then(() => {
    for (const seed of queue) settle.get(seed)!(null);
  });
  return {
    result: (seed) => results.get(seed) ?? Promise.reject(new Error(`seed ${seed} is not in these lanes`)),
    done,
  };
}

/** Runs `seeds` in `opts.parallel` lanes; ends once every started seed ended or was given up on. */
export async function runLanes(seeds: number[], opts: LaneOptions): Promise<LaneResults> {
  const lanes = startLanes(seeds, opts);
  await lanes.done;
  const all = await Promise.all(seeds.map((seed) => lanes.result(seed).then((r) => [seed, r] as const)));
  const results = all.flatMap(([, r]) => (r ? [r] : []));
  return { results, notStarted: all.filter(([, r]) => r === null).map(([seed]) => seed) };
}

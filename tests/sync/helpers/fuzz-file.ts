// The seeded multi-client fuzz test of issue 5 (invariants 1–5), as two test files (fuzz.test.ts and
// fuzz-2.test.ts), each half of the seeds. SYNC_FUZZ_SEEDS sets how many seeds run in all (default
// 200); SYNC_FUZZ_FROM the first seed; SYNC_FUZZ_PARALLEL how many run at once in each file (default 2).
// Seeds share the one stack of the sync group; each makes its own two accounts. A failing seed prints
// its operations; pin it in PINNED.
//
// Why two files (issue 42, session 53): a seed's engines run on fake-indexeddb in the test's own thread,
// and in `npm test` that one thread was the suite's critical path. Beside the journeys it was runnable
// 96 % of the time and ran 9 % (/proc schedstat, 2.7 s run and 28.9 s waiting in 30 s): CPU-starved
// behind ~20 runnable threads, so more lanes in it could not go faster. Vitest runs two files at a
// time; as one file it held one of them for 1,770–2,140 s and ended the step in sessions 51–52. Two
// files take both at the start (tests/helpers/long-first-sequencer.ts) and the rest of the group runs
// after them: in the session's run each seed cost its thread ~1.7 CPU-s instead of 3.1, and the fuzz
// ended at ~1,420 s (docs/TESTING.md, session 53).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { HEAL_MS, runSeed, type FuzzStack, type SeedResult } from './fuzz-run.ts';
import { startLanes, type Lanes } from './seed-lanes.ts';
import { pool } from './server-db.ts';

const SEEDS = Number(process.env.SYNC_FUZZ_SEEDS ?? 200);
const FROM = Number(process.env.SYNC_FUZZ_FROM ?? 1);
const PARALLEL = Number(process.env.SYNC_FUZZ_PARALLEL ?? 2);
const BATCH = 40;
/** Seeds that once failed; they run first (in the first file), every time. */
const PINNED: number[] = [];

/** The seeds of one file: the first takes the first half of SYNC_FUZZ_FROM…+SYNC_FUZZ_SEEDS, the second the rest (PINNED run in the first too). */
export function seedsOf(part: 1 | 2, from = FROM, seeds = SEEDS): number[] {
  const first = Math.ceil(seeds / 2);
  const [start, count] = part === 1 ? [from, first] : [from + first, seeds - first];
  return Array.from({ length: count }, (_, i) => start + i);
}

/**
 * A seed takes 1–7 s alone and up to ~170 s in the first minutes of a run on a slow machine (session
 * 44: 100 s of operations, then healing); healing has its own bound (HEAL_MS). One that has not ended
 * after SEED_LIMIT_MS is waiting for something that will not come: it is reported failed with where
 * it stood and what the database and the stack were doing, and no further seed starts. CI once had all five
 * batches reach their 600 s with nothing to say why (stop 57, on a head whose fuzz passed in 1,460 s
 * on an equally slow machine): either a seed held, or a batch slower than its bound whose seeds,
 * never cancelled, then ran beside the next batch's and made it slower too. The first now says so
 * (helpers/seed-lanes.ts).
 */
const SEED_LIMIT_MS = Number(process.env.SYNC_FUZZ_SEED_LIMIT_MS ?? HEAL_MS + 270_000);

/** What the database and the stack were doing when a seed was given up on. */
async function diagnose(db: pg.Pool, stack: FuzzStack): Promise<string[]> {
  const lines: string[] = [];
  try {
    const activity = await db.query<{ pid: number; state: string; wait: string | null; secs: number; query: string }>(
      `select pid, state, wait_event_type || ':' || wait_event as wait, extract(epoch from now() - state_change)::int as secs, left(query, 160) as query
         from pg_stat_activity where state is distinct from 'idle' and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    lines.push(`database: ${activity.rows.length} busy connections`, ...activity.rows.map((r) => `  ${r.pid} ${r.state} ${r.wait ?? '-'} ${r.secs} s: ${r.query}`));
  } catch (err) {
    lines.push(`database: could not ask (${String(err)})`);
  }
  const probe = await fetch(`${stack.url}/rest/v1/`, { headers: { apikey: stack.anonKey }, signal: AbortSignal.timeout(10_000) }).then(
    (r) => `answered ${r.status}`,
    (err: unknown) => `did not answer (${String(err)})`,
  );
  lines.push(`the stack's REST endpoint ${probe}`);
  return lines;
}

/**
 * Every seed of the file (the pinned ones first) runs in one set of lanes, started by the first test
 * that asks: a batch's test reads its own seeds' results, while the lanes have gone on to the next
 * batch's. Before session 53 each batch started its lanes anew, and its slowest seed (30–71 s in CI,
 * against medians of 10–25 s) ran alone at its end while the other lanes waited.
 */
function seedRunner(seeds: number[], world: () => { db: pg.Pool; stack: FuzzStack }) {
  let lanes: Lanes | undefined;
  return async (batch: number[]): Promise<SeedResult[]> => {
    const { db, stack } = world();
    lanes ??= startLanes(seeds, {
      parallel: PARALLEL,
      limitMs: SEED_LIMIT_MS,
      run: (seed, progress) => runSeed(db, stack, seed, { progress }),
      diagnose: () => diagnose(db, stack),
    });
    const all = await Promise.all(batch.map((seed) => lanes!.result(seed).then((r) => [seed, r] as const)));
    const notStarted = all.filter(([, r]) => r === null).map(([seed]) => seed);
    if (notStarted.length) console.error(`fuzz: seeds ${notStarted.join(', ')} not started after a held seed`);
    return [
      ...all.flatMap(([, r]) => (r ? [r] : [])),
      ...notStarted.map((seed): SeedResult => ({ seed, ok: false, problems: ['not started after a held seed'], ops: [], ms: 0, faults: {}, typed: 0, healMs: -1 })),
    ];
  };
}

function report(results: SeedResult[]): string[] {
  if (process.env.SYNC_FUZZ_VERBOSE)
    for (const r of results) {
      console.log(`seed ${r.seed} ${r.ok ? 'ok' : 'FAILED'} ${r.ms} ms (heal ${r.healMs} ms), ${r.ops.length} ops, ${r.typed} typed, faults ${JSON.stringify(r.faults)}`);
      if (r.ms > 10_000) console.log(`  slow seed ops: ${r.ops.join('; ')}`);
    }
  // One line a batch, passed or not: how long its seeds took, so a run's log shows the fuzz slowing
  // down before a bound is ever reached.
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const slowest = results.reduce((a, r) => (r.ms > a.ms ? r : a), results[0]!);
  console.log(
    `fuzz: ${results.length} seeds, ${results.filter((r) => r.ok).length} ok; median ${ms[ms.length >> 1]} ms, slowest seed ${slowest.seed} ${slowest.ms} ms (heal ${slowest.healMs} ms)`,
  );
  const failed = results.filter((r) => !r.ok).map((r) => `seed ${r.seed} (${r.ms} ms):\n  ${r.problems.join('\n  ')}\n  ops: ${r.ops.join('; ')}`);
  for (const f of failed) console.error(f);
  return failed;
}

/** Defines one fuzz file's tests: its pinned seeds (the first file only), then its seeds in batches of BATCH. */
export function fuzzFile(part: 1 | 2): void {
  let db: pg.Pool | undefined;
  let stack: FuzzStack | undefined;
  beforeAll(() => {
    const s = inject('stack');
    stack = { url: s.url, anonKey: s.anonKey, jwtSecret: s.jwtSecret };
    db = pool(s.databaseUrl);
  });
  afterAll(async () => {
    await db?.end();
  });
  const pinned = part === 1 ? PINNED : [];
  const mine = seedsOf(part);
  const runAll = seedRunner([...pinned, ...mine], () => ({ db: db!, stack: stack! }));

  describe(`fuzz (part ${part} of 2): several clients, faulty network, restarts`, () => {
    // Also what a file with no seeds of its own runs (SYNC_FUZZ_SEEDS=1).
    it('the two files split the seeds: each of SYNC_FUZZ_FROM… runs once, the first half here in part 1', () => {
      const both = [...seedsOf(1), ...seedsOf(2)];
      expect(both).toEqual(Array.from({ length: SEEDS }, (_, i) => FROM + i));
      expect(seedsOf(1).length - seedsOf(2).length).toBeGreaterThanOrEqual(0);
      expect(seedsOf(1).length - seedsOf(2).length).toBeLessThanOrEqual(1);
    });
    for (const seed of pinned) {
      it(`pinned seed ${seed}`, async () => {
        expect(report(await runAll([seed]))).toEqual([]);
      });
    }
    for (let i = 0; i < mine.length; i += BATCH) {
      const seeds = mine.slice(i, i + BATCH);
      // The batch's 2,400 s is no bound of the property: the slowest batch seen took 653 s (session 44,
      // the run's first minutes on a slow machine); a seed that waits for something that will not come
      // is caught by SEED_LIMIT_MS, not here.
      it(`invariants 1-5 hold for seeds ${seeds[0]}..${seeds[seeds.length - 1]}`, async () => {
        expect(report(await runAll(seeds))).toEqual([]);
      }, 2_400_000);
    }
  });
}

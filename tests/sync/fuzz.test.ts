// The seeded multi-client fuzz test of issue 5 (invariants 1–5). SYNC_FUZZ_SEEDS sets how many seeds
// run (default 200); SYNC_FUZZ_FROM the first seed; SYNC_FUZZ_PARALLEL how many run at once
// (default 3; docs/TESTING.md, session 28: 6 was 0.6× and 1.45× of 3 in two pairs on a shared
// machine, so the default stays until a quiet machine decides). Seeds share the one stack of this
// test group; each makes its own two accounts. A failing seed prints its operations; pin it in PINNED.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { HEAL_MS, runSeed, type FuzzStack, type SeedResult } from './helpers/fuzz-run.ts';
import { startLanes, type Lanes } from './helpers/seed-lanes.ts';
import { pool } from './helpers/server-db.ts';

const SEEDS = Number(process.env.SYNC_FUZZ_SEEDS ?? 200);
const FROM = Number(process.env.SYNC_FUZZ_FROM ?? 1);
const PARALLEL = Number(process.env.SYNC_FUZZ_PARALLEL ?? 3);
const BATCH = 40;
/** Seeds that once failed; they run first, every time. */
const PINNED: number[] = [];

let db: pg.Pool;
let stack: FuzzStack;

beforeAll(() => {
  const s = inject('stack');
  stack = { url: s.url, anonKey: s.anonKey, jwtSecret: s.jwtSecret };
  db = pool(s.databaseUrl);
});
afterAll(async () => {
  await db.end();
});

/**
 * A seed takes 1–7 s alone and up to ~170 s in the first minutes of a run on a slow machine (session
 * 44: 100 s of operations, then healing); healing has its own bound (HEAL_MS). One that has not ended
 * after SEED_LIMIT_MS is waiting for something that will not come: it is reported failed with where
 * it stood and what the database and the stack were doing, and its lane goes on. CI once had all five
 * batches reach their 600 s with nothing to say why (stop 57, on a head whose fuzz passed in 1,460 s
 * on an equally slow machine): either a seed held, or a batch slower than its bound whose seeds,
 * never cancelled, then ran beside the next batch's and made it slower too. The first now says so
 * (helpers/seed-lanes.ts).
 */
const SEED_LIMIT_MS = Number(process.env.SYNC_FUZZ_SEED_LIMIT_MS ?? HEAL_MS + 270_000);

/** What the database and the stack were doing when a seed was given up on. */
async function diagnose(): Promise<string[]> {
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
 * against medians of 10–25 s) ran alone at its end, two lanes of three idle, five times a run.
 */
let lanes: Lanes | undefined;
async function runAll(seeds: number[]): Promise<SeedResult[]> {
  lanes ??= startLanes([...PINNED, ...Array.from({ length: SEEDS }, (_, i) => FROM + i)], {
    parallel: PARALLEL,
    limitMs: SEED_LIMIT_MS,
    run: (seed, progress) => runSeed(db, stack, seed, { progress }),
    diagnose,
  });
  const all = await Promise.all(seeds.map((seed) => lanes!.result(seed).then((r) => [seed, r] as const)));
  const notStarted = all.filter(([, r]) => r === null).map(([seed]) => seed);
  if (notStarted.length) console.error(`fuzz: seeds ${notStarted.join(', ')} not started after a held seed`);
  return [
    ...all.flatMap(([, r]) => (r ? [r] : [])),
    ...notStarted.map((seed): SeedResult => ({ seed, ok: false, problems: ['not started after a held seed'], ops: [], ms: 0, faults: {}, typed: 0, healMs: -1 })),
  ];
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

describe('fuzz: several clients, faulty network, restarts', () => {
  for (const seed of PINNED) {
    it(`pinned seed ${seed}`, async () => {
      expect(report(await runAll([seed]))).toEqual([]);
    });
  }
  for (let start = FROM; start < FROM + SEEDS; start += BATCH) {
    const seeds = Array.from({ length: Math.min(BATCH, FROM + SEEDS - start) }, (_, i) => start + i);
    // The batch's 2,400 s is no bound of the property: the slowest batch seen took 653 s (session 44,
    // the run's first minutes on a slow machine); a seed that waits for something that will not come
    // is caught by SEED_LIMIT_MS, not here.
    it(`invariants 1-5 hold for seeds ${seeds[0]}..${seeds[seeds.length - 1]}`, async () => {
      expect(report(await runAll(seeds))).toEqual([]);
    }, 2_400_000);
  }
});

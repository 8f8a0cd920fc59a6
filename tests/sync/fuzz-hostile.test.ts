// The seeded fuzz of issue 18: what real phones meet (token expiry and revocation through the real
// auth server, conversations deleted and completed on the server, clock skew and steps, black-holed
// replies, 5xx, account switches by impersonation, a backup restored on the server), on a dedicated
// stack whose access tokens live 3 s. Zero lost, zero duplicated, zero divergent; the drain after the
// reconnect is printed and bounded. Short by default (CI: the whole suite stays under 20 min):
// SYNC_HOSTILE_SEEDS sets how many seeds run (default 3), SYNC_HOSTILE_FROM the first; a failing seed
// prints its operations. SYNC_HOSTILE_RESTORES=0 leaves the restores out (the seeds' sequences as
// before they joined); SYNC_HOSTILE_PAUSE=<ms> waits that long before healing, as a slow machine
// does (past 33 s every token is refused: PostgREST takes one only up to 30 s after its exp).
// SYNC_HOSTILE_TRACE=1 prints every auth request of every device.
// Each seed prints where its time went (set-up, operations, heal, convergence); an operation that took
// over 1 s is marked in its log, which SYNC_HOSTILE_VERBOSE=1 prints for every seed.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { runHostileSeed, type HostileStack } from './helpers/fuzz-hostile-run.ts';
import { pool } from './helpers/server-db.ts';

const JWT_EXPIRY_S = 3;
const SEEDS = Number(process.env.SYNC_HOSTILE_SEEDS ?? 3);
const FROM = Number(process.env.SYNC_HOSTILE_FROM ?? 1);
/** The issue's goal is 2 s on loopback; the bound is generous for a loaded CI machine. */
const DRAIN_BOUND_MS = 15_000;
/** Seeds that once failed and were fixed; they run first, every time. */
const PINNED: number[] = [1, 4, 7, 9]; // 1, 7, 9: R9.8's 409 (tests/db/send-account-switch.test.ts); 4: R9.12 (the admin's clock stepped back; tests/sync/session.test.ts)
/**
 * Seeds that fail on an engine defect not fixed yet (named here, reported in issue 18's thread);
 * skipped by default so the suite stays green, run with SYNC_HOSTILE_KNOWN=1. Move a seed to PINNED
 * once its defect is fixed.
 */
const KNOWN: Record<number, string> = {
};

let stack: TestStack;
let info: HostileStack;
let db: pg.Pool;

beforeAll(async () => {
  stack = await startTestStack({ jwtExpiry: JWT_EXPIRY_S });
  info = { url: stack.url, anonKey: stack.keys.anonKey, jwtSecret: stack.keys.jwtSecret, jwtExpiryS: JWT_EXPIRY_S };
  db = pool(stack.databaseUrl);
});
afterAll(async () => {
  await db.end();
  await stack.destroy();
});

describe('hostile fuzz: expiry, revocation, deletions, clocks, black holes, account switches, restores', () => {
  const seeds = [...new Set([...PINNED, ...Array.from({ length: SEEDS }, (_, i) => FROM + i)])];
  for (const seed of seeds) {
    const known = KNOWN[seed];
    const run = known && !process.env.SYNC_HOSTILE_KNOWN ? it.skip : it;
    run(`seed ${seed}${known ? ` (known defect: ${known})` : ''}: every typed message delivered once or failed with a reason, every device equal to the server`, async () => {
      const r = await runHostileSeed(db, info, seed, { restores: process.env.SYNC_HOSTILE_RESTORES !== '0' });
      console.log(`hostile seed ${seed}: ${r.ms} ms (${JSON.stringify(r.phases)}), ${r.ops.length} ops, ${r.typed} typed, drain after reconnect ${r.drainMs} ms, faults ${JSON.stringify(r.faults)}`);
      if (process.env.SYNC_HOSTILE_VERBOSE) console.log(`  ops: ${r.ops.join('; ')}`);
      if (r.problems.length) console.error(`seed ${seed}:\n  ${r.problems.join('\n  ')}\n  ops: ${r.ops.join('; ')}`);
      expect(r.problems).toEqual([]);
      expect(r.drainMs).toBeLessThan(DRAIN_BOUND_MS);
    }, 120_000);
  }
});

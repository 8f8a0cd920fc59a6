// Starts a throwaway local stack: its own DATA_DIR under the OS temp dir and free ports, so test runs
// never collide with each other or with `npm start`. Its PostgreSQL is a copy of a migrated and seeded
// template cluster (supabase/local/pg-template/, issue 42), the same as a fresh one
// (tests/server/pg-template.test.ts); TEST_PG_TEMPLATE=0 makes every stack initdb and migrate from
// empty instead, and `pgTemplate: false` does it for one stack. It runs with fsync=off (PostgreSQL's
// non-durable settings for throwaway data: only an operating-system crash could lose anything, and a
// killed PostgreSQL loses nothing, every commit's WAL being written before it returns); TEST_PG_FSYNC=1
// keeps fsync on. Measured on the db group: 66 → 51 s and 53 → 43 s (session 51).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readConfig, type StackConfig } from '../../supabase/local/config.ts';
import { startStack, type RunningStack, type StartOptions } from '../../supabase/local/stack.ts';

const QUICK_HASH_COST = 4;
/** The seed's demo users (supabase/seed.sql, the password main.ts prints). */
const SEEDED_USERS = ['demo@poradna.test', 'admin@poradna.test', 'druhy@poradna.test'];
const SEEDED_PASSWORD = 'poradna123';

/**
 * The seed hashes its users' password at GoTrue's cost 10 (the template copies that); a test stack
 * hashes them again at the quick cost, so the journeys' sign-ins as the demo users are cheap too.
 * Only hashes still at 10 are touched: a password a test changed since was hashed at the quick cost
 * and stays (no comparison here: three at cost 10 would cost a start ~0.2 CPU-s).
 */
async function quickSeededHashes(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update auth.users set encrypted_password = extensions.crypt($1, extensions.gen_salt('bf', $3))
        where email = any($2) and encrypted_password like '$2_$10$%'`,
      [SEEDED_PASSWORD, SEEDED_USERS, QUICK_HASH_COST],
    );
  } finally {
    await client.end();
  }
}

export interface TestStack extends RunningStack {
  dataDir: string;
  /** Stops the stack and deletes its DATA_DIR. */
  destroy(): Promise<void>;
}

export async function startTestStack(
  overrides: Partial<StackConfig> = {},
  opts: StartOptions & { dataDir?: string } = {},
): Promise<TestStack> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'poradna-test-')));
  const config: StackConfig = {
    ...readConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    authRateLimit: { perIp: 1000, perEmail: 1000, windowMs: 60_000 },
    authLinkRateLimit: { perClient: 1000, perEmail: 1000, windowSeconds: 600 },
    // Tests play many clients from one machine: they name their address in X-Forwarded-For.
    trustForwardedFor: true,
    // The demo responder answers without its thinking pause (R13.6): tests that wait for many
    // replies do not pay 600 ms each. The e2e suite stack asks for the shipped pause.
    aiDemoThinkMs: 0,
    // bcrypt at its least cost, as GoTrue's own tests hash (supabase/auth internal/api/api_test.go:
    // crypto.PasswordHashCost = crypto.QuickHashCost, bcrypt.MinCost): a hash or comparison costs
    // ~1.5 ms of CPU instead of ~75 (bcryptjs at 10), and the suite makes ~1,000 of them (issue 42).
    // The rules tested (length, 72 bytes, the unknown address's dummy comparison) do not depend on it.
    passwordHashCost: QUICK_HASH_COST,
    ...overrides,
  };
  const logs: string[] = [];
  const pgTemplate = process.env.TEST_PG_TEMPLATE !== '0';
  const pgFsync = process.env.TEST_PG_FSYNC === '1';
  const stack = await startStack(config, { log: (l) => logs.push(l), pgTemplate, pgFsync, ...opts });
  if (config.seed && config.passwordHashCost === QUICK_HASH_COST) await quickSeededHashes(stack.databaseUrl);
  return Object.assign(stack, {
    dataDir,
    destroy: async () => {
      await stack.stop();
      // Retried: a full run once failed here with ENOTEMPTY (a file still being written into the
      // directory while rm walked it; which writer is not known yet).
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  });
}

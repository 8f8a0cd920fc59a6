import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './tests/helpers/long-first-sequencer.ts';

// Test groups (run one with `npx vitest run --project <name>`; a file kept apart below is in its own
// project: `npx vitest run <file>` finds it whatever its project):
//   unit    pure logic and components, no servers
//   server  the local stack through unmodified supabase-js and raw HTTP (one shared stack per project)
//   db      schema, RLS and change-feed tests on real PostgreSQL with the real migrations
//   sync    the sync engine with fake-indexeddb against the real local stack
//
// Files run side by side (issue 42): the groups wait on PostgreSQL, the stack and their own timers far
// more than they compute (one worker left a 2-core machine at load 0.4), so WORKERS files run at once
// across all groups. Every file on a shared stack isolates itself with fresh users and rows; a file that
// changes what all users of a stack see, or that measures time, is kept apart:
//   timing                files whose property is a bound in time that load moves (TIMING below): in a
//                         group of their own (sequence.groupOrder 1: Vitest runs each group only after
//                         the one before has ended — groupSpecs in vitest's cli-api), TIMING_WORKERS side
//                         by side, and in `npm test` as a step of its own after all the others, on a
//                         machine doing nothing else (TIMING_BESIDE=1: from the start, the others at
//                         nice 10; scripts/test.mjs, sessions 34–35).
//                         Speed goals are never asserted in tests (bench rows measure them): realtime
//                         latency and fan-out, and get_unread_counts, print figures and assert mechanism.
//   timing-wide           time-bound files whose bounds keep a wide margin under load (TIMING_WIDE
//                         below), in the same group and pool as `timing`, on a shared stack of their own.
//   server-configured     issue 36 "Done when": the attack files again, against a stack started with
//                         Chatwoot and an AI provider configured (tests/helpers/global-stack-configured.ts;
//                         files with stacks of their own start them through startAttackStack). Only each
//                         row's attack tests run (ATTACK_TESTS), not the files' other tests; chatwoot-ssrf
//                         runs with Chatwoot configured in every project already.
// Two files at a time by default (session 34). One file beside one journey shard left a fifth of both
// cores idle (session 33); two files beside two journey shards keep both busy (docs/TESTING.md, sessions
// 33 and 34). VITEST_WORKERS=1 runs one file at a time.
const WORKERS = Number(process.env.VITEST_WORKERS ?? 2);

// Files whose property is a bound in time (enumeration timing; a heartbeat against an idle limit; joins
// per second; a drain within 2 s of reconnect rather than after a 12.8–30 s back-off; a hung part cut
// within its timeout): `npm test` runs this project alone, after every other step has ended, on a
// machine doing nothing else (scripts/test.mjs; TIMING_BESIDE=1 runs it from the start with the other
// steps at nice 10). Run beside the journeys at equal priority and 100 % CPU they met their bounds
// only by luck (the side-by-side runs of session 23).
// Issue 42 (session 31): the timing files run side by side (3–5 at a time) missed these bounds in every
// run at load 12–20 (R9.1's 2 s drain each time; also R9.2, R9.6, a fuzz seed's 15 s drain), and
// enumeration-timing's noise (MAD of paired differences) rose from 25 ms to 109–287 ms, past the 44 ms
// gap it exists to catch. R9.1's drain is 5 sends each behind a token refresh (3 s tokens sit inside
// auth-js's 90 s refresh margin: every request refreshes), ~10 round trips in a row, so its 2 s holds
// only while each round trip stays under ~200 ms (docs/TESTING.md, session 31).
// Session 33: what missed there was the load of other sessions (12–20) or busy loops, never the timing
// files' own: they wait far more than they compute (~45 CPU-s in the step's ~260 s one at a time). On a
// machine doing nothing else, TIMING_WORKERS (4) of them side by side kept every bound with its margin
// (R9.1's drain 168–230 ms of 2 s; enumeration's MAD 0.4–2.0 ms, its allowed gap at the 5 ms floor)
// and the step took 88 s instead of 264 (docs/TESTING.md, session 33). Session 34: the same step from
// the start of `npm test`, beside the rest at nice 10, kept its bounds (R9.1 656–822 ms; enumeration MAD
// up to 18.8 ms, allowed 22.1), and the run fell by ~60 s; one such run failed hostile-fuzz seed 7 on
// a product race the load exposed (R9.20, fixed in session 35); then one run failed hostile.test
// R9.3 in that step (a 500 from send_message, cause not found, its answer printed since), and the
// step went back to the end until session 42 made beside the default again (scripts/test.mjs;
// docs/TESTING.md).
const TIMING = [
  'tests/server/enumeration-timing.test.ts',
  'tests/sync/session.test.ts',
  'tests/sync/fuzz-hostile.test.ts',
  // R9.6: queued sends drain within 2 s of the reconnect (not after a deadline 45 s or 2 h off); missed
  // once at load 21–23 beside other work (session 29's helper runs). ~5 s alone.
  'tests/sync/r9-clock.test.ts',
  // R13.5: Stop aborts the provider request within 1 s (missed at load 20, the run of c7829b8 beside the journeys).
  'tests/server/ai-streaming.test.ts',
  // R9.10: two tabs push 20 queued sends within 5 s (one round trip each): missed at load 17 with two
  // busy loops beside the timing-wide files (session 31).
  'tests/sync/hostile.test.ts',
  // 110 joins' replies within 5 s, on the shared stack: a reply came too late at load 19 while that
  // stack lived in Vitest's main process, which beside other files also transforms their imports (the
  // stack has its own process since session 32; not moved back without runs to show it holds).
  'tests/server/realtime-security.test.ts',
];
// Time-bound files whose bounds kept a wide margin with the timing files side by side at load 12–20
// (session 31: realtime's idle limit 2 s against 150 ms heartbeats, its own realtime server; a clean
// 503 within 8 s and recovery within 20 s; Chatwoot's 10 s timeout with 3 s to spare). They wait far
// more than they compute. Beside the `timing` files since session 33 (one pool), never beside another
// project. stack-recovery and chatwoot-slow start stacks of their own; realtime shares the project's,
// with its own table and users.
const TIMING_WIDE = [
  'tests/server/realtime.test.ts',
  'tests/server/stack-recovery.test.ts',
  'tests/server/chatwoot-slow.test.ts',
];
// The timing and timing-wide files' pool (one group: see the projects below). TIMING_WORKERS=1 runs
// them one at a time, as before session 33.
const TIMING_WORKERS = Number(process.env.TIMING_WORKERS ?? 4);

// Issue 36's rows, each by the file that performs its attack (SECURITY.md "Issue 36, item by item").
const ATTACKS_CONFIGURED = [
  'tests/server/dev-mail-access.test.ts', // N1
  'tests/server/push-security.test.ts', // N2
  'tests/server/push-delivery.test.ts', // N3
  'tests/server/realtime-flood.test.ts', // N4
  'tests/server/ai-cost.test.ts', // N5
  'tests/db/query-limits.test.ts', // F4
  'tests/db/not-found-4xx.test.ts', // N6, info (message length)
  'tests/server/auth-refresh.test.ts', // N7
  'tests/server/auth-security-signup.test.ts', // N8
  'tests/server/auth-security-account.test.ts', // F12
  'tests/server/realtime-session.test.ts', // F15
  'tests/server/attacks.test.ts', // forged tokens, admin RPCs, other accounts' rows
];

// The names of those files' attack tests (a suite whose tests are all filtered out starts no stack).
const ATTACK_TESTS = /issue 36|R10\.1[5-8] |N[78]: |F12: |forged JWTs|cannot act as an admin|at most 1000 rows|depth-6/;

// The test timeout guards against a hang; it is no bound on speed (a test states its own bounds).
// Under the suite's load a test takes up to ~4× its quiet time: in the clean-clone run of d85f81e
// lifecycle's start:stack test took 38.8 s and change-feed's 8 writers 36.1 s, 60–65 % of the 60 s
// this was, the margin at which a journey of the same run's kind (attachments-chatwoot, 57 s of 60)
// timed out in the next.
const stackGroup = { globalSetup: ['tests/helpers/global-stack.ts'], testTimeout: 120_000, hookTimeout: 120_000 };

// The server and db files share their worker (`isolate: false`): a fresh process per file cost a fork,
// a transform and the imports (pg, supabase-js, the stack's modules), ~2 s a file at CI's load, for
// files whose tests take well under that. Safe because nothing they import keeps state between files
// (checked session 30, docs/TESTING.md): supabase/local reads no environment (config.ts) and its
// module-level maps are keyed by content, object or a random endpoint; the helpers' only state is
// tests/db/helpers.ts's pool (ended by closeDb, made again on use) and auth-helpers' address counter;
// a file's own stack, sockets and servers are stopped in its afterAll, and its spies restored. Vitest
// never hands a worker to another project (isEqualRunner), so `inject('stack')` read at import stays
// the project's. A file that keeps state in a module, stubs a global or reads the environment at
// import does not belong in these projects. `server-configured` shares its worker too (session 45): its
// files are server and db files, and what the project adds keeps no state in the worker:
// `inject('configured')` is read per call and is the project's own; the stacks that startAttackStack
// starts in the worker, with Chatwoot and the AI provider configured, stop their workers, timers and
// exit listener on destroy; push dispatch's module-level breaker is keyed by endpoint (the fake push
// services' random ports) and its agents only pool connections. Files of the other projects still get a
// process each.
const shareWorker = { isolate: false };

// The unit files share their worker too (issue 42, session 33: the group took 73 CPU-s and 61 s alone with a
// process per file, 27–36 CPU-s and 22–32 s shared; its tests are 15 s of that). Those that replace a module or a
// global (vi.mock and its kin) keep a process each, in `unit-mocks`: a module graph shared with the files
// after them would keep their replacement or miss it (two such files failed when shared). The list is read
// from the files themselves, so a new file that mocks lands there without anyone remembering to list it.
const MOCKS = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|resetModules)\(/;
function unitFilesThatMock(dir = 'tests/unit'): string[] {
  // Read from this config's folder, whatever the working directory; paths stay relative to it, as globs are.
  return readdirSync(join(import.meta.dirname, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return unitFilesThatMock(path);
    return /\.test\.tsx?$/.test(e.name) && MOCKS.test(readFileSync(join(import.meta.dirname, path), 'utf8')) ? [path] : [];
  });
}
const UNIT = ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'];
const UNIT_MOCKS = unitFilesThatMock();

// Vitest 4.1 applies a project's testNamePattern to that project's files only (checked: the project
// runs 1 of auth-security-account's 5 tests, the server project all 5), though ProjectConfig's type
// leaves the option out; a variable passes it without the object-literal check.
const configuredAttacks = {
  name: 'server-configured',
  include: ATTACKS_CONFIGURED,
  testNamePattern: ATTACK_TESTS,
  ...stackGroup,
  ...shareWorker,
  globalSetup: ['tests/helpers/global-stack-configured.ts'],
};

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // The longest files start first (tests/helpers/long-first-sequencer.ts): the step no longer ends on
    // one of them running alone.
    sequence: { sequencer: LongFirstSequencer },
    // `npm run coverage` (issue 42): lines of the product's code that the Vitest groups run. Code run by
    // a group's shared stack runs in a process of its own (tests/helpers/stack-child.ts, started by
    // globalSetup), where v8 coverage is not collected; code run by a file's own stack, and everything
    // imported by the tests, is counted.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,tsx}', 'sync/**/*.ts', 'sw/**/*.ts', 'supabase/**/*.ts'],
      // coverage-final.json ('json') too: scripts/e2e-coverage.mjs --vitest lays the journeys' lines
      // over it for one "Vitest + browser" figure (session 37).
      reporter: ['text-summary', 'json-summary', 'json'],
      reportsDirectory: 'coverage',
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          exclude: UNIT_MOCKS,
          ...shareWorker,
          environment: 'node',
          // A guard against a hang, not a bound on speed: the unit group runs beside the journeys
          // (scripts/test.mjs), and at 100 % CPU a jsdom form typed key by key ran past Vitest's
          // 5 s default (new-password-form in the run of a317721), and its typing then ran on into
          // the next test.
          testTimeout: 30_000,
        },
      },
      // Files that replace a module or a global: a process each (UNIT_MOCKS above).
      { test: { name: 'unit-mocks', include: UNIT_MOCKS.length ? UNIT_MOCKS : ['tests/unit/no-such-file'], environment: 'node', testTimeout: 30_000 } },
      {
        test: { name: 'server', include: ['tests/server/**/*.test.ts'], exclude: [...TIMING, ...TIMING_WIDE], ...stackGroup, ...shareWorker },
      },
      { test: configuredAttacks },
      // Both timing projects in one group: one pool of TIMING_WORKERS for their files (Vitest refuses two
      // maxWorkers in one group), each project on its own shared stack, as realtime.test kills its
      // stack's LISTEN connection, which realtime-security and hostile must never see.
      { test: { name: 'timing', include: TIMING, ...stackGroup, maxWorkers: TIMING_WORKERS, sequence: { groupOrder: 1 }, testTimeout: 120_000 } },
      { test: { name: 'timing-wide', include: TIMING_WIDE, ...stackGroup, maxWorkers: TIMING_WORKERS, sequence: { groupOrder: 1 }, testTimeout: 120_000 } },
      { test: { name: 'db', include: ['tests/db/**/*.test.ts'], exclude: [...TIMING, ...TIMING_WIDE], ...stackGroup, ...shareWorker } },
      { test: { name: 'sync', include: ['tests/sync/**/*.test.ts'], exclude: [...TIMING, ...TIMING_WIDE], ...stackGroup, testTimeout: 120_000 } },
    ],
  },
});

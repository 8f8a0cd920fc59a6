import { defineConfig } from 'vitest/config';

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
//   server-push-settings  push-security sets private.push_settings.delay_seconds (one row for the whole
//                         database) to 0 and back: on the shared stack, push-read-states' queued
//                         notifications would be sent meanwhile. Its own stack (its own globalSetup).
//   timing                enumeration-timing, whose security property is itself about time (an address with
//                         an account must answer as fast as one without): with maxWorkers 1 Vitest runs it
//                         after every other file, alone (groupSpecs in vitest's cli-api: isolate,
//                         groupOrder 0 and maxWorkers 1 make a sequential group of their own); its paired
//                         samples cancel the load of the other steps of `npm test`. Its own stack. Speed
//                         goals are never asserted in tests (bench rows measure them): realtime latency and
//                         fan-out, and get_unread_counts, print their figures and assert the mechanism.
// Two files at a time by default (issue 42): a file waits on its stack far more than it computes;
// VITEST_WORKERS=1 runs them one by one (to time a file alone), VITEST_WORKERS=3 three at a time.
const WORKERS = Number(process.env.VITEST_WORKERS ?? 2);

const PUSH_SETTINGS = ['tests/server/push-security.test.ts'];
const TIMING = ['tests/server/enumeration-timing.test.ts'];

const stackGroup = { globalSetup: ['tests/helpers/global-stack.ts'], testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // `npm run coverage` (issue 42): lines of the product's code that the Vitest groups run. Code run by
    // a group's shared stack lives in Vitest's main process (globalSetup), where v8 coverage is not
    // collected; code run by a file's own stack, and everything imported by the tests, is counted.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,tsx}', 'sync/**/*.ts', 'sw/**/*.ts', 'supabase/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: { name: 'server', include: ['tests/server/**/*.test.ts'], exclude: [...PUSH_SETTINGS, ...TIMING], ...stackGroup },
      },
      { test: { name: 'server-push-settings', include: PUSH_SETTINGS, ...stackGroup } },
      { test: { name: 'timing', include: TIMING, ...stackGroup, maxWorkers: 1 } },
      { test: { name: 'db', include: ['tests/db/**/*.test.ts'], exclude: TIMING, ...stackGroup } },
      { test: { name: 'sync', include: ['tests/sync/**/*.test.ts'], ...stackGroup, testTimeout: 120_000 } },
    ],
  },
});

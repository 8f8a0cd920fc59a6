import { defineConfig } from 'vitest/config';

// Test groups (run one with `npx vitest run --project <name>`):
//   unit    pure logic and components, no servers
//   server  the local stack through unmodified supabase-js and raw HTTP (one shared stack per run)
//   db      schema, RLS and change-feed tests on real PostgreSQL with the real migrations
//   sync    the sync engine with fake-indexeddb against the real local stack
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/helpers/global-stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'db',
          include: ['tests/db/**/*.test.ts'],
          globalSetup: ['tests/helpers/global-stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'sync',
          include: ['tests/sync/**/*.test.ts'],
          globalSetup: ['tests/helpers/global-stack.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

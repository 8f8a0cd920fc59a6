// The preamble the admin-*.e2e.ts journeys share: the origin the stack announces (the session and
// CORS live there), SQL on a stack's database, the toast locator, and a second stack wired to the
// Chatwoot double for the /admin/chatwoot journeys.
import { resolve } from 'node:path';
import { test as base, type Page } from '@playwright/test';
import pg from 'pg';
import { startChatwootDouble, type ChatwootDouble } from '../tests/doubles/chatwoot/server.ts';
import { startTestStack, type TestStack } from '../tests/helpers/stack.ts';
import { signIn } from './defects-helpers.ts';

export const ADMIN = { email: 'admin@poradna.test', password: 'poradna123' } as const;

/** The origin the stack announces in /env.js (the app's backend), so the session and CORS match. */
export async function announcedOrigin(baseURL: string): Promise<string> {
  const script = await (await fetch(`${baseURL}/env.js`)).text();
  const announced = /"supabaseUrl"\s*:\s*"([^"]+)"/.exec(script)?.[1];
  return announced ? new URL(announced).origin : baseURL;
}

/** Signs the seeded super admin in on this origin (default: the page's baseURL). */
export async function signInAdmin(page: Page, origin = ''): Promise<void> {
  await signIn(page, ADMIN.email, { password: ADMIN.password, origin });
}

/** Playwright's test with `baseURL` replaced by the suite stack's announced origin. */
export const testAtOrigin = base.extend({
  baseURL: async ({ baseURL }, provide) => provide(await announcedOrigin(baseURL ?? '')),
});

/** One query on a fresh connection; by default the suite stack's database (global-setup.ts). */
export async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = [], databaseUrl = process.env.E2E_DATABASE_URL ?? ''): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The sonner toast showing this text (the first, when it repeats). */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

export interface ChatwootStack {
  double: ChatwootDouble;
  stack: TestStack;
  /** The origin this stack announces (sign in and navigate here, not on the suite's stack). */
  origin: string;
  destroy(): Promise<void>;
}

/**
 * The Chatwoot double and a second local stack whose functions get its API token (every admin-chatwoot-*
 * call reaches the double), private URLs allowed (the double is on loopback http) and this webhook secret.
 */
export async function startChatwootStack(webhookSecret: string): Promise<ChatwootStack> {
  const double = await startChatwootDouble();
  const webDir = process.env.E2E_WEB_DIR;
  let stack: TestStack;
  try {
    stack = await startTestStack(webDir ? { webDir: resolve(webDir) } : {}, {
      functionEnv: { CHATWOOT_API_TOKEN: double.apiToken, CHATWOOT_WEBHOOK_SECRET: webhookSecret, CHATWOOT_ALLOW_PRIVATE_URLS: '1' },
    });
  } catch (err) {
    await double.stop();
    throw err;
  }
  return {
    double,
    stack,
    origin: await announcedOrigin(stack.url),
    destroy: async () => {
      await stack.destroy();
      await double.stop();
    },
  };
}

// Issue 36 "Done when": every attack row holds against a stack started with default settings AND
// against one with Chatwoot and an AI provider configured. The `server-configured` Vitest project
// (vitest.config.ts) runs the attack files a second time with this configuration: its globalSetup
// (global-stack-configured.ts) starts the doubles and provides `configured`; a file that starts
// stacks of its own starts them through `startAttackStack`, which adds the same configuration when
// the project provides it and is plain `startTestStack` everywhere else.
import pg from 'pg';
import { inject } from 'vitest';
import type { StackConfig } from '../../supabase/local/config.ts';
import type { StartOptions } from '../../supabase/local/stack.ts';
import { startTestStack, type TestStack } from './stack.ts';

/** What a stack needs to run with Chatwoot and an AI provider configured (the doubles' addresses). */
export interface ProvidedConfigured {
  ai: NonNullable<StackConfig['ai']>;
  chatwoot: NonNullable<StackConfig['chatwoot']>;
  /** The Chatwoot double's API base URL and account, as the admin saves them in /admin/chatwoot. */
  chatwootUrl: string;
  chatwootAccountId: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    configured: ProvidedConfigured | undefined;
  }
}

/** Set only in the `server-configured` project. */
export const configured = (): ProvidedConfigured | undefined => inject('configured');

/** Saves the Chatwoot connection as the super admin's /admin/chatwoot page does (the singleton row). */
export async function saveChatwootConfig(databaseUrl: string, c: ProvidedConfigured): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into public.chatwoot_config (api_base_url, account_id) values ($1, $2)
       on conflict (singleton) do update set api_base_url = excluded.api_base_url, account_id = excluded.account_id`,
      [c.chatwootUrl, c.chatwootAccountId],
    );
  } finally {
    await client.end();
  }
}

/**
 * A throwaway stack for an attack test: the test's own settings, plus Chatwoot and the AI provider
 * in the `server-configured` project (a setting the test names itself wins).
 */
export async function startAttackStack(
  overrides: Partial<StackConfig> = {},
  opts: StartOptions & { dataDir?: string } = {},
): Promise<TestStack> {
  const c = configured();
  if (!c) return startTestStack(overrides, opts);
  const stack = await startTestStack({ ai: c.ai, chatwoot: c.chatwoot, ...overrides }, opts);
  await saveChatwootConfig(stack.databaseUrl, c);
  return stack;
}

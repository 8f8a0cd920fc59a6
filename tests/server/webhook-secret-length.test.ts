// Issue 21 admin item 4: a CHATWOOT_WEBHOOK_SECRET shorter than 24 characters used to answer 503 to
// every real delivery while the admin's {webhook_test} probe (answered before the secret was looked
// at) stayed green. Now the probe meets the same check as a delivery, the function names the reason,
// and the stack refuses to start with such a secret.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../supabase/local/config.ts';
import { repoRoot } from '../../supabase/local/migrate.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { rawPost, refOf, type StackRef } from './functions-helpers.ts';

const SHORT = 'only-twenty-three-chars'; // 23 characters
const REASON = 'Webhook secret is too short: CHATWOOT_WEBHOOK_SECRET has 23 characters, at least 24 are required';

let stack: TestStack;
let ref: StackRef;
beforeAll(async () => {
  expect(SHORT).toHaveLength(23);
  // Started past readConfig on purpose (a hosted project has no start-up check): the function itself must refuse.
  stack = await startTestStack({}, { functionEnv: { CHATWOOT_WEBHOOK_SECRET: SHORT } });
  ref = refOf(stack);
});
afterAll(async () => {
  await stack?.destroy();
});

describe('a webhook secret shorter than 24 characters', () => {
  it('fails the admin probe with the reason, as it fails a real delivery', async () => {
    expect(await rawPost(ref, 'chatwoot-webhook', JSON.stringify({ webhook_test: true }))).toEqual({ status: 503, body: { error: REASON } });
    const delivery = JSON.stringify({ event: 'message_created', id: 1, content: 'x', conversation: { id: 1 } });
    expect(await rawPost(ref, 'chatwoot-webhook', delivery, { query: `?secret=${SHORT}` })).toEqual({ status: 503, body: { error: REASON } });
  });

  it('is refused by readConfig with a clear message; 24 characters are accepted', () => {
    expect(() => readConfig({ CHATWOOT_API_TOKEN: 't', CHATWOOT_WEBHOOK_SECRET: SHORT })).toThrow(
      /CHATWOOT_WEBHOOK_SECRET must be at least 24 characters .* got 23/,
    );
    // Refused even without an API token: the secret would silently be dropped otherwise.
    expect(() => readConfig({ CHATWOOT_WEBHOOK_SECRET: SHORT })).toThrow(/at least 24 characters/);
    expect(readConfig({ CHATWOOT_API_TOKEN: 't', CHATWOOT_WEBHOOK_SECRET: `${SHORT}x` }).chatwoot?.webhookSecret).toBe(`${SHORT}x`);
  });

  it('stops `npm start` before anything runs, printing the reason (exit 2)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, CHATWOOT_API_TOKEN: 't', CHATWOOT_WEBHOOK_SECRET: SHORT, PORT: '0', DATA_DIR: '/nonexistent-admin-int' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(err).toContain('Configuration error: CHATWOOT_WEBHOOK_SECRET must be at least 24 characters');
  });
});

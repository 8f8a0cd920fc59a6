// The admin-chatwoot-* functions and the webhook's unconfigured answers on the shared stack, where
// Chatwoot is not configured (no chatwoot_config row, no CHATWOOT_API_TOKEN): 401 without a JWT,
// 403 for members, 400 for bad bodies, 503 for a super admin with a good body.
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import {
  SEEDED,
  SPECIALIST,
  accessToken,
  anonDb,
  call,
  freshUser,
  rawPost,
  signIn,
  sql,
  type Client,
} from './functions-helpers.ts';

const stack = inject('stack');
const NOT_CONFIGURED = 'Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo CHATWOOT_API_TOKEN)';

interface Case {
  name: string;
  good: Record<string, unknown>;
  bad?: { body: Record<string, unknown>; error: string };
}

const CASES: Case[] = [
  { name: 'admin-chatwoot-inboxes', good: {} },
  {
    name: 'admin-chatwoot-conversations',
    good: {},
    bad: {
      body: { conversation_id: 'abc' },
      error: 'conversation_id must be a Chatwoot conversation id (a positive integer)',
    },
  },
  { name: 'admin-chatwoot-conversations', good: { conversation_id: 12 } },
  {
    name: 'admin-chatwoot-assign',
    good: { conversation_id: 12, assignee_id: 3 },
    bad: {
      body: { conversation_id: 12, assignee_id: -1 },
      error: 'assignee_id must be a positive integer or null',
    },
  },
  {
    name: 'admin-chatwoot-assign',
    good: { conversation_id: '12', assignee_id: null },
    bad: {
      body: { assignee_id: 3 },
      error: 'conversation_id must be a Chatwoot conversation id (a positive integer)',
    },
  },
  {
    name: 'admin-chatwoot-toggle-status',
    good: { conversation_id: 12, to: 'resolved' },
    bad: {
      body: { conversation_id: 12, to: 'closed' },
      error: 'to must be one of open, resolved, pending, snoozed',
    },
  },
  { name: 'admin-chatwoot-toggle-status', good: { conversation_id: 12, status: 'open' } },
  {
    name: 'admin-chatwoot-set-custom-attributes',
    good: { conversation_id: 12, attributes: { plan: 'PRO' } },
    bad: { body: { conversation_id: 12, attributes: ['PRO'] }, error: 'attributes must be an object' },
  },
  {
    name: 'admin-chatwoot-send',
    good: {
      conversation_id: '00000000-0000-4000-b000-000000000001',
      content: 'Ahoj',
      client_correlation_id: '5b3e1d0c-8a8f-4a57-9f55-5a2d1b0c9e01',
    },
    bad: { body: { conversation_id: '00000000-0000-4000-b000-000000000001' }, error: 'content is required' },
  },
];
const NAMES = [...new Set(CASES.map((c) => c.name))];

let admin: Client;
let demo: Client;
beforeAll(async () => {
  admin = await signIn(stack, SEEDED.admin);
  demo = await signIn(stack, SEEDED.demo);
});

describe('admin-chatwoot-* on a stack without Chatwoot', () => {
  it.each(NAMES)('%s refuses a call without a JWT (401) and with only the anon key (401)', async (name) => {
    // verify_jwt = false (supabase/config.toml): the function itself refuses the missing token.
    expect(await rawPost(stack, name, '{}')).toEqual({
      status: 401,
      body: { error: 'No auth token available' },
    });
    expect(await call(anonDb(stack), name, {})).toEqual({
      status: 401,
      body: { error: 'No auth token available' },
    });
  });

  it.each(NAMES.filter((n) => n !== 'admin-chatwoot-send'))('%s refuses a member (403)', async (name) => {
    const good = CASES.find((c) => c.name === name)!.good;
    expect(await call(demo, name, good)).toEqual({
      status: 403,
      body: { error: 'Super admin role required' },
    });
  });

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s answers a super admin 503 for a good body',
    async (_name, c) => {
      const r = await call(admin, c.name, c.good);
      expect(r).toEqual({ status: 503, body: { success: false, error: NOT_CONFIGURED } });
    },
  );

  it.each(CASES.filter((c) => c.bad).map((c) => [c.name, c] as const))(
    '%s answers 400 for a bad body',
    async (_name, c) => {
      expect(await call(admin, c.name, c.bad!.body)).toEqual({
        status: 400,
        body: { success: false, error: c.bad!.error },
      });
    },
  );

  it.each(NAMES)('%s answers 400 for a body that is not JSON', async (name) => {
    const token = await accessToken(admin);
    expect(await rawPost(stack, name, '{"x"', { token })).toEqual({
      status: 400,
      body: { error: 'Request body must be valid JSON' },
    });
  });

  it.each([...NAMES, 'chatwoot-webhook'])('%s is deployed (HEAD is not 404)', async (name) => {
    const res = await fetch(`${stack.url}/functions/v1/${name}`, { method: 'HEAD' });
    expect(res.status).not.toBe(404);
  });
});

describe('admin-chatwoot-send for members', () => {
  it("lets a member send into their own account's conversation (503 here: not configured) and nothing is stored", async () => {
    const u = await freshUser(stack);
    const conv = (await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body
      .conversation_id as string;
    const r = await call(u.client, 'admin-chatwoot-send', {
      conversation_id: conv,
      content: 'Ahoj',
      client_correlation_id: '0d7f0c3c-1f6b-4c8e-8e0e-2f4a6b8c0d11',
    });
    expect(r).toEqual({ status: 503, body: { success: false, error: NOT_CONFIGURED } });
    const [n] = await sql<{ n: string }>(
      stack,
      "select count(*) as n from messages where conversation_id = $1 and direction = 'user'",
      [conv],
    );
    expect(n?.n).toBe('0');
  });

  it("refuses a member another account's conversation and the admin form {account_id, inbox_id}", async () => {
    const druhy = await signIn(stack, SEEDED.druhy);
    expect(
      await call(druhy, 'admin-chatwoot-send', {
        conversation_id: '00000000-0000-4000-b000-000000000001',
        content: 'Ahoj',
      }),
    ).toEqual({ status: 403, body: { error: 'Conversation not found' } });
    expect(
      await call(demo, 'admin-chatwoot-send', {
        account_id: '00000000-0000-4000-b000-000000000001',
        inbox_id: 1,
        content: 'Ahoj',
      }),
    ).toEqual({ status: 403, body: { error: 'Super admin role required' } });
    expect(await call(demo, 'admin-chatwoot-send', { conversation_id: 'abc', content: 'Ahoj' })).toEqual({
      status: 400,
      body: { error: 'conversation_id must be a UUID' },
    });
  });

  it('answers a super admin 400 for an inbox no specialist has', async () => {
    const [acc] = await sql<{ account_id: string }>(
      stack,
      "select au.account_id from account_users au join auth.users u on u.id = au.user_id where u.email = 'druhy@poradna.test'",
    );
    expect(
      await call(admin, 'admin-chatwoot-send', {
        account_id: acc!.account_id,
        inbox_id: 987654,
        content: 'Ahoj',
      }),
    ).toEqual({
      status: 400,
      body: { success: false, error: 'Žiadny špecialista nemá tento Chatwoot Inbox ID' },
    });
  });
});

describe('chatwoot-webhook without a configured secret', () => {
  it('answers the {webhook_test} probe and events alike: 503, not configured (issue 21 admin item 4)', async () => {
    expect(await call(anonDb(stack), 'chatwoot-webhook', { webhook_test: true })).toEqual({
      status: 503,
      body: { error: 'Webhook secret is not configured' },
    });
    const r = await rawPost(stack, 'chatwoot-webhook', JSON.stringify({ event: 'message_created', id: 1 }), {
      query: '?secret=x',
    });
    expect(r).toEqual({ status: 503, body: { error: 'Webhook secret is not configured' } });
  });
});

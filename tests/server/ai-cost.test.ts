// Issue 36 N5: what one member can make the AI provider cost. The attack of the review — a fresh
// self-registered member sends 40 long messages at once — made 40 provider calls. The database now
// gathers a burst into one job per conversation and applies the plan's quotas when a job would be
// created (migration 20261128130000_ai_cost_limits.sql); over a quota the message is kept and the
// member reads why in Slovak. Provider calls are counted at the provider double.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiProviderDouble, type AiProviderDouble } from '../doubles/ai-provider.ts';
import { anonClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { startAttackStack } from '../helpers/configured.ts';
import type { TestStack } from '../helpers/stack.ts';
import { freshUser, refOf, sendMessage, sql, waitFor, type Client, type StackRef } from './functions-helpers.ts';

let provider: AiProviderDouble;
let stack: TestStack;
let ref: StackRef;

beforeAll(async () => {
  provider = await startAiProviderDouble();
  stack = await startAttackStack({ ai: { baseUrl: provider.url, apiKey: 'sk-test', model: 'fake-model' } });
  ref = refOf(stack);
});
afterAll(async () => {
  await stack?.destroy();
  await provider?.stop();
});

async function firstConversation(client: Client): Promise<string> {
  const conv = await client.rpc('ensure_first_conversation');
  expect(conv.error).toBeNull();
  return (conv.data as { conversation_id: string }).conversation_id;
}

/** Resolves once the conversation has no job waiting or running. */
const settled = (conversationId: string) =>
  waitFor(
    async () =>
      (await sql(ref, `select 1 from ai_reply_jobs where conversation_id = $1 and status in ('pending', 'running')`, [conversationId]))
        .length === 0,
    'the conversation’s jobs to finish',
    30_000,
  );

const messagesOf = (conversationId: string) =>
  sql<{ id: string; direction: string; source: string | null; text: string; payload: Record<string, unknown> | null }>(
    ref,
    'select id, direction, source, text, payload from messages where conversation_id = $1 order by created_at, id',
    [conversationId],
  );

/** A plan of the given limits for the member's account (the plans' own values are tested as data). */
async function onPlan(userId: string, perUserHour: number, perAccountDay: number): Promise<void> {
  const code = `T${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
  await sql(
    ref,
    `insert into plans (code, name, ai_replies_per_user_hour, ai_replies_per_account_day) values ($1, 'Test', $2, $3)`,
    [code, perUserHour, perAccountDay],
  );
  await sql(ref, `update accounts set plan = $1 where id = (select account_id from account_users where user_id = $2 limit 1)`, [code, userId]);
}

describe('AI cost limits (issue 36 N5)', () => {
  it('a fresh self-registered member sends 40 messages of 8,000 characters at once: all are kept, the provider is called at most 10 times', async () => {
    const member = anonClient(ref);
    const signed = await signUpConfirmed(stack, member, { email: uniqueEmail('aicost'), password: 'heslo12345' });
    expect(signed.error).toBeNull();
    const conversationId = await firstConversation(member);
    const before = provider.calls.length;

    const texts = Array.from({ length: 40 }, (_, i) => `${i} `.padEnd(8_000, 'x'));
    const t0 = performance.now();
    await Promise.all(texts.map((t) => sendMessage(member, conversationId, t)));
    const sendMs = performance.now() - t0;
    await settled(conversationId);

    const calls = provider.calls.slice(before);
    const messages = await messagesOf(conversationId);
    const users = messages.filter((m) => m.direction === 'user');
    const replies = messages.filter((m) => m.direction === 'specialist' && m.source === 'ai');
    console.log(
      `N5 burst: 40 sends in ${sendMs.toFixed(0)} ms → ${calls.length} provider calls, ` +
        `largest prompt ${(Math.max(...calls.map((c) => c.bytes)) / 1024).toFixed(0)} KB, ${replies.length} replies`,
    );
    expect(users).toHaveLength(40);
    expect(calls.length).toBeLessThanOrEqual(10);
    // One reply per job, and the last job was anchored on the newest message: the burst is answered once.
    const jobs = await sql<{ message_id: string; status: string }>(ref, 'select message_id, status from ai_reply_jobs where conversation_id = $1', [conversationId]);
    expect(replies).toHaveLength(jobs.length);
    expect(jobs.every((j) => j.status === 'done')).toBe(true);
    expect(jobs.map((j) => j.message_id)).toContain(users.at(-1)!.id);
  });

  it('a lone message is due at once; the next one within the burst window waits for it and gathers what follows', async () => {
    const u = await freshUser(ref, 'aicost');
    const conversationId = await firstConversation(u.client);
    // Inside one transaction the worker cannot claim the jobs, so their rows can be read as made.
    const db = new pg.Client({ connectionString: ref.databaseUrl });
    await db.connect();
    try {
      await db.query('begin');
      const insert = (text: string) =>
        db.query(`insert into messages (conversation_id, text, direction, sender_user_id) values ($1, $2, 'user', $3)`, [conversationId, text, u.userId]);
      const jobs = async () =>
        (await db.query<{ due_in: number }>(
          `select extract(epoch from run_after - now())::float8 as due_in from ai_reply_jobs where conversation_id = $1 order by created_at`,
          [conversationId],
        )).rows.map((r) => r.due_in);
      await insert('Prvá');
      expect(await jobs()).toEqual([0]);
      // A job queued a moment ago (as if the first one had been claimed already).
      await db.query(`update ai_reply_jobs set status = 'running' where conversation_id = $1`, [conversationId]);
      await insert('Druhá');
      await insert('Tretia');
      const due = await jobs();
      expect(due).toHaveLength(2);
      expect(due[1]).toBe(3);
    } finally {
      await db.query('rollback');
      await db.end();
    }
  });

  it('over the plan’s replies per user and hour, the message is kept and one Slovak notice says why and until when', async () => {
    const u = await freshUser(ref, 'aicost');
    await onPlan(u.userId, 1, 100);
    const conversationId = await firstConversation(u.client);
    const before = provider.calls.length;
    await sendMessage(u.client, conversationId, 'Prvá otázka');
    await settled(conversationId);
    await sendMessage(u.client, conversationId, 'Druhá otázka');
    await sendMessage(u.client, conversationId, 'Tretia otázka');
    await settled(conversationId);

    const messages = await messagesOf(conversationId);
    expect(messages.filter((m) => m.direction === 'user').map((m) => m.text)).toEqual(['Prvá otázka', 'Druhá otázka', 'Tretia otázka']);
    const notices = messages.filter((m) => m.payload?.['system_type'] === 'ai_limit');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/^Dosiahli ste limit odpovedí AI špecialistov vo vašom pláne Test: 1 za hodinu na používateľa\. Vaša správa je uložená, automatická odpoveď na ňu však nepríde\. Napíšte znova po \d\d:\d\d/);
    expect(notices[0]!.payload).toMatchObject({ limit: 'user_hour' });
    expect(provider.calls.length - before).toBe(1);
  });

  it('over the plan’s replies per account and day, the notice names the account’s daily limit', async () => {
    const u = await freshUser(ref, 'aicost');
    await onPlan(u.userId, 100, 1);
    const conversationId = await firstConversation(u.client);
    await sendMessage(u.client, conversationId, 'Prvá otázka');
    await settled(conversationId);
    await sendMessage(u.client, conversationId, 'Druhá otázka');
    await settled(conversationId);
    const notices = (await messagesOf(conversationId)).filter((m) => m.payload?.['system_type'] === 'ai_limit');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/^Váš účet vyčerpal denný limit odpovedí AI špecialistov v pláne Test: 1 za deň\./);
  });

  it('the shipped plans carry their limits', async () => {
    const rows = await sql<{ code: string; h: number; d: number }>(
      ref,
      `select code, ai_replies_per_user_hour as h, ai_replies_per_account_day as d from plans where code in ('FREE', 'PRO', 'ENTERPRISE') order by code`,
    );
    expect(rows).toEqual([
      { code: 'ENTERPRISE', h: 600, d: 20000 },
      { code: 'FREE', h: 30, d: 200 },
      { code: 'PRO', h: 120, d: 2000 },
    ]);
  });
});

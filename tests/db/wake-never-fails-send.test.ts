// A member's send never fails because the AI worker's wake-up failed (issue 35; migration
// 20261128000100_wake_never_fails_send.sql). On hosted the wake-up runs inside send_message's
// transaction through pg_net and Vault; here they are the stand-ins of hosted-extensions-db.ts,
// made to fail the way the real ones can (pg_net raising, Vault refusing its view). The send still
// stores the message, the job stays pending, a WARNING says why, and the sweep wakes the worker.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_ID } from './helpers.ts';
import { hostedExtensionsDb, type HostedExtensionsDb } from './hosted-extensions-db.ts';

let hosted: HostedExtensionsDb;
let member: { id: string; conversationId: string };

const WORKING_HTTP_POST = `create or replace function net.http_post(url text, body jsonb default '{}', params jsonb default '{}',
    headers jsonb default '{}', timeout_milliseconds integer default 5000)
  returns bigint language sql as $$
    insert into net.requests (url, body, headers, timeout_milliseconds) values (url, body, headers, timeout_milliseconds) returning id $$`;
const FAILING_HTTP_POST = `create or replace function net.http_post(url text, body jsonb default '{}', params jsonb default '{}',
    headers jsonb default '{}', timeout_milliseconds integer default 5000)
  returns bigint language plpgsql as $$ begin raise exception 'pg_net: could not queue the request'; end $$`;

/** send_message as the member, the way PostgREST presents the call; returns the row and the warnings. */
async function sendAsMember(text: string): Promise<{ message: { id: string } | undefined; error: string | undefined; warnings: string[] }> {
  const c = new pg.Client({ connectionString: hosted.url });
  const warnings: string[] = [];
  c.on('notice', (n) => {
    if (n.severity === 'WARNING') warnings.push(n.message ?? '');
  });
  await c.connect();
  try {
    await c.query('begin');
    await c.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [
      JSON.stringify({ sub: member.id, role: 'authenticated' }),
    ]);
    const r = await c.query<{ id: string }>('select id from public.send_message($1, $2, $3)', [member.conversationId, text, randomUUID()]);
    await c.query('commit');
    return { message: r.rows[0], error: undefined, warnings };
  } catch (e) {
    return { message: undefined, error: (e as Error).message, warnings };
  } finally {
    await c.end();
  }
}

const jobOf = async (messageId: string) =>
  (await hosted.db.query<{ status: string }>('select status from public.ai_reply_jobs where message_id = $1', [messageId])).rows;
const requests = async () => Number((await hosted.db.query<{ n: string }>('select count(*) as n from net.requests')).rows[0]!.n);

beforeAll(async () => {
  hosted = await hostedExtensionsDb('wake');
  const db = hosted.db;
  await db.query(`insert into vault.secrets values ('project_url', 'https://ref.supabase.co'), ('service_role_key', 'sk-test')`);
  const email = `wake-${randomUUID().slice(0, 8)}@db.test`;
  const user = await db.query<{ id: string }>(`insert into auth.users (email, encrypted_password, email_confirmed_at) values ($1, 'x', now()) returning id`, [email]);
  const id = user.rows[0]!.id;
  const conv = await db.query<{ id: string }>(
    `insert into public.conversations (account_id, specialist_id) select account_id, $2 from public.account_users where user_id = $1 returning id`,
    [id, ASSISTANT_ID],
  );
  member = { id, conversationId: conv.rows[0]!.id };
});

afterAll(async () => {
  await hosted?.drop();
});

describe('send_message and the AI wake-up (pg_net + Vault on hosted)', () => {
  it('a healthy wake-up queues one pg_net request with the send', async () => {
    const before = await requests();
    const sent = await sendAsMember('Ahoj, zdravý budíček');
    expect(sent.error).toBeUndefined();
    expect(await jobOf(sent.message!.id)).toEqual([{ status: 'pending' }]);
    expect(await requests()).toBe(before + 1);
    expect(sent.warnings).toEqual([]);
  });

  it('pg_net failing: the send succeeds, the job stays pending, a WARNING names the error, the sweep wakes the worker', async () => {
    await hosted.db.query(FAILING_HTTP_POST);
    const before = await requests();
    const sent = await sendAsMember('Ahoj, pg_net zlyhal');
    await hosted.db.query(WORKING_HTTP_POST);
    expect(sent.error).toBeUndefined();
    expect(sent.message?.id).toBeTruthy();
    expect(await jobOf(sent.message!.id)).toEqual([{ status: 'pending' }]);
    expect(sent.warnings).toEqual([expect.stringContaining('pg_net: could not queue the request')]);
    expect(await requests()).toBe(before);
    // The pg_cron sweep's call (the schedule's command) now wakes the worker for the queued job.
    await hosted.db.query('select private.invoke_ai_reply_worker()');
    expect(await requests()).toBe(before + 1);
  });

  it('Vault refusing its secrets: the send succeeds and the job stays pending', async () => {
    await hosted.db.query('revoke select on vault.decrypted_secrets from migration_owner');
    const sent = await sendAsMember('Ahoj, Vault zlyhal');
    await hosted.db.query('grant select on vault.decrypted_secrets to migration_owner');
    expect(sent.error).toBeUndefined();
    expect(await jobOf(sent.message!.id)).toEqual([{ status: 'pending' }]);
    expect(sent.warnings).toEqual([expect.stringContaining('permission denied')]);
  });
});

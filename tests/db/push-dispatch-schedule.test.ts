// Hosted push dispatch (issue 20): pg_cron ticks every 5 s and calls push-dispatch through pg_net,
// with the URL and key from Vault, only when a notification is due. Stand-ins with the real
// signatures of pg_cron, pg_net and Vault, as in ai-reply-schedule.test.ts (same setup).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../supabase/local/migrate.ts';
import { closeDb, one, stack } from './helpers.ts';

const dbName = `pushcron_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: stack.databaseUrl });
let fresh: pg.Client;

const STAND_INS = `
  create schema cron;
  create table cron.job (jobid bigserial, jobname text unique, schedule text, command text, username text default current_user);
  create function cron.schedule(job_name text, schedule text, command text) returns bigint language sql as $$
    insert into cron.job (jobname, schedule, command) values (job_name, schedule, command)
    on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command returning jobid $$;
  create schema net;
  create table net.requests (id bigserial, url text, body jsonb, headers jsonb, timeout_milliseconds int);
  create function net.http_post(url text, body jsonb default '{}', params jsonb default '{}',
                                headers jsonb default '{}', timeout_milliseconds integer default 5000)
  returns bigint language sql as $$
    insert into net.requests (url, body, headers, timeout_milliseconds) values (url, body, headers, timeout_milliseconds) returning id $$;
  create schema vault;
  create table vault.secrets (name text primary key, secret text);
  create view vault.decrypted_secrets as select name, secret as decrypted_secret from vault.secrets;
  create function vault.create_secret(new_secret text, new_name text default null, new_description text default '',
                                      new_key_id uuid default null) returns uuid language sql as $$
    insert into vault.secrets (name, secret) values (new_name, new_secret) returning gen_random_uuid() $$;
  grant usage on schema cron, net, vault to migration_owner;
  grant all on all tables in schema cron, net, vault to migration_owner;
  grant all on all sequences in schema cron, net to migration_owner;`;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const u = new URL(stack.databaseUrl);
  u.pathname = `/${dbName}`;
  fresh = new pg.Client({ connectionString: u.toString() });
  await fresh.connect();
  await fresh.query(STAND_INS);
  const authenticatorPassword = (await admin.query<{ rolpassword: string }>(`select rolpassword from pg_authid where rolname = 'authenticator'`)).rows[0]!
    .rolpassword;
  await migrate(u.toString(), { seed: true, authenticatorPassword });
});

afterAll(async () => {
  await fresh?.end();
  await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [dbName]);
  await admin.query(`drop database if exists ${dbName}`);
  await admin.end();
  await closeDb();
});

describe('push-dispatch schedule', () => {
  it('without pg_cron and pg_net (the local stack) the migration did nothing and says why', async () => {
    expect(await one(`select private.schedule_push_dispatch() as r`)).toEqual({ r: 'skipped: pg_cron is not enabled' });
    expect(await one(`select private.invoke_push_dispatch() as id`)).toEqual({ id: null });
  });

  it('with them, the migration scheduled the tick every 5 s, once, however often it is re-run', async () => {
    const jobs = async () => (await fresh.query<{ jobname: string }>(`select jobname, schedule, command from cron.job where jobname = 'push-dispatch'`)).rows;
    expect(await jobs()).toEqual([{ jobname: 'push-dispatch', schedule: '5 seconds', command: 'select private.push_dispatch_tick()' }]);
    expect((await fresh.query(`select private.schedule_push_dispatch() as r`)).rows[0]).toEqual({ r: 'scheduled: push-dispatch every 5 seconds' });
    expect(await jobs()).toHaveLength(1);
  });

  it('a tick calls push-dispatch only when a notification is due, with the key from Vault', async () => {
    await fresh.query(`insert into vault.secrets values ('project_url', 'https://ref.supabase.co/'), ('service_role_key', 'sk-test') on conflict do nothing`);
    await fresh.query(`truncate net.requests`);
    expect((await fresh.query(`select private.push_dispatch_tick() as id`)).rows[0]).toEqual({ id: null });
    await fresh.query(
      `insert into public.push_notifications (message_id, user_id, conversation_id, due_at)
       select m.id, au.user_id, m.conversation_id, now() + interval '1 hour'
         from public.messages m join public.account_users au on au.account_id = m.account_id limit 1`,
    );
    await fresh.query(`select private.push_dispatch_tick()`);
    expect((await fresh.query(`select count(*)::int as n from net.requests`)).rows[0]).toEqual({ n: 0 }); // not due yet
    await fresh.query(`update public.push_notifications set due_at = now() - interval '1 second'`);
    await fresh.query(`select private.push_dispatch_tick()`);
    expect((await fresh.query(`select url, headers from net.requests`)).rows).toEqual([
      { url: 'https://ref.supabase.co/functions/v1/push-dispatch', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-test' } },
    ]);
  });

  it('API roles cannot call the scheduling functions', async () => {
    for (const fn of ['private.invoke_push_dispatch()', 'private.push_dispatch_tick()', 'private.schedule_push_dispatch()']) {
      for (const role of ['anon', 'authenticated', 'service_role']) {
        expect((await one<{ ok: boolean }>(`select has_function_privilege($1, $2, 'execute') as ok`, [role, fn])).ok, `${role} ${fn}`).toBe(false);
      }
    }
  });
});

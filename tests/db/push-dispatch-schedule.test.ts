// Hosted push dispatch (issue 20): pg_cron ticks every 5 s and calls push-dispatch through pg_net,
// with the URL and key from Vault, only when a notification is due. Stand-ins with the real
// signatures of pg_cron, pg_net and Vault, as in ai-reply-schedule.test.ts (same setup).
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, one } from './helpers.ts';
import { hostedExtensionsDb, type HostedExtensionsDb } from './hosted-extensions-db.ts';

let hosted: HostedExtensionsDb;
let fresh: pg.Client;

beforeAll(async () => {
  hosted = await hostedExtensionsDb('pushcron');
  fresh = hosted.db;
});

afterAll(async () => {
  await hosted?.drop();
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
      { url: 'https://ref.supabase.co/functions/v1/push-dispatch', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-test', apikey: 'sk-test' } },
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

// Hosted AI replies: the migration schedules ai-reply-worker with pg_cron and wakes it through pg_net
// with the URL and key from Vault. pg_cron, pg_net and Vault cannot run here, so a throwaway database
// gets stand-ins with their real signatures (cron.schedule(text, text, text), net.http_post(url,
// body, params, headers, timeout_milliseconds), vault.decrypted_secrets) that record the calls; the
// stack's own database shows the migration is a harmless no-op without them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../supabase/local/migrate.ts';
import { closeDb, one } from './helpers.ts';
import { hostedExtensionsDb, type HostedExtensionsDb } from './hosted-extensions-db.ts';

let hosted: HostedExtensionsDb;
let fresh: pg.Client;

beforeAll(async () => {
  hosted = await hostedExtensionsDb('cron');
  fresh = hosted.db;
});

afterAll(async () => {
  await hosted?.drop();
  await closeDb();
});

describe('ai-reply-worker schedule', () => {
  it('without pg_cron and pg_net (the local stack) the migration did nothing and says why', async () => {
    expect(await one(`select private.schedule_ai_reply_worker() as r`)).toEqual({ r: 'skipped: pg_cron is not enabled' });
    expect(await one(`select private.invoke_ai_reply_worker() as id`)).toEqual({ id: null });
  });

  it('with them, the migration scheduled the worker every 30 s, once, however often it is re-run', async () => {
    // Only this worker's job: other migrations schedule their own (push-dispatch, issue 20).
    const jobs = async () => (await fresh.query<{ jobname: string }>(`select jobname, schedule, command from cron.job where jobname = 'ai-reply-worker'`)).rows;
    expect(await jobs()).toEqual([{ jobname: 'ai-reply-worker', schedule: '30 seconds', command: 'select private.invoke_ai_reply_worker()' }]);
    expect((await fresh.query(`select private.schedule_ai_reply_worker() as r`)).rows[0]).toEqual({ r: 'scheduled: ai-reply-worker every 30 seconds' });
    expect(await jobs()).toHaveLength(1);
  });

  it('no request without the Vault secrets; with them a queued job POSTs to the worker with the key', async () => {
    await fresh.query(`truncate net.requests`);
    expect((await fresh.query(`select private.invoke_ai_reply_worker() as id`)).rows[0]).toEqual({ id: null });
    await fresh.query(`insert into vault.secrets values ('project_url', 'https://ref.supabase.co/'), ('service_role_key', 'sk-test')`);

    // A job as the message trigger queues it (any seeded message will do).
    await fresh.query(
      `insert into public.ai_reply_jobs (message_id, conversation_id, account_id, specialist_id)
       select m.id, m.conversation_id, m.account_id, c.specialist_id
         from public.messages m join public.conversations c on c.id = m.conversation_id
        where not exists (select 1 from public.ai_reply_jobs j where j.message_id = m.id) limit 1`,
    );
    const sent = (await fresh.query(`select url, headers, timeout_milliseconds from net.requests`)).rows;
    expect(sent).toEqual([
      {
        url: 'https://ref.supabase.co/functions/v1/ai-reply-worker',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-test', apikey: 'sk-test' },
        timeout_milliseconds: 55000,
      },
    ]);
  });

  it("the README runbook's Vault + cron step runs as written", async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const block = /<!-- runbook:vault-cron[^>]*-->\s*```sql\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the runbook block in README.md').toBeTruthy();
    await fresh.query(`truncate vault.secrets; truncate net.requests`);
    const sql = block!.replace(/^ {3}/gm, '').replace('<ref>', 'abc').replace(/<(?:secret key|service role key)[^>]*>/, 'sk-runbook');
    const results = (await fresh.query(sql)) as unknown as pg.QueryResult[];
    expect(results.at(-1)!.rows).toEqual([{ schedule_ai_reply_worker: 'scheduled: ai-reply-worker every 30 seconds' }]);
    await fresh.query(`select private.invoke_ai_reply_worker()`);
    expect((await fresh.query(`select url, headers ->> 'Authorization' as auth from net.requests`)).rows).toEqual([
      { url: 'https://abc.supabase.co/functions/v1/ai-reply-worker', auth: 'Bearer sk-runbook' },
    ]);
  });

  it('API roles cannot call the scheduling functions', async () => {
    for (const fn of ['private.invoke_ai_reply_worker()', 'private.schedule_ai_reply_worker()', 'private.tg_ai_reply_jobs_wake()']) {
      for (const role of ['anon', 'authenticated', 'service_role']) {
        expect((await one<{ ok: boolean }>(`select has_function_privilege($1, $2, 'execute') as ok`, [role, fn])).ok, `${role} ${fn}`).toBe(false);
      }
    }
  });
});

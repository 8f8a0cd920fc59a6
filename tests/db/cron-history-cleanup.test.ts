// cron.job_run_details cleanup (issue 41 part 3): with pg_cron (its stand-in, hosted-extensions-db.ts)
// the migration schedules a daily job whose command deletes runs older than 7 days, also runs that
// never recorded an end; without pg_cron (the local stack) it does nothing and says why.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, one } from './helpers.ts';
import { hostedExtensionsDb, type HostedExtensionsDb } from './hosted-extensions-db.ts';

let hosted: HostedExtensionsDb;
let fresh: pg.Client;

beforeAll(async () => {
  hosted = await hostedExtensionsDb('cronclean');
  fresh = hosted.db;
});

afterAll(async () => {
  await hosted?.drop();
  await closeDb();
});

const job = async () =>
  (await fresh.query<{ schedule: string; command: string }>(`select schedule, command from cron.job where jobname = 'cron-history-cleanup'`)).rows;

describe('cron history cleanup', () => {
  it('without pg_cron (the local stack) the migration did nothing and says why', async () => {
    expect(await one(`select private.schedule_cron_history_cleanup() as r`)).toEqual({ r: 'skipped: pg_cron is not enabled' });
  });

  it('with pg_cron, one daily job, however often the schedule is re-run', async () => {
    expect(await job()).toHaveLength(1);
    expect((await job())[0]!.schedule).toBe('17 3 * * *');
    expect((await fresh.query(`select private.schedule_cron_history_cleanup() as r`)).rows[0]).toEqual({
      r: 'scheduled: cron-history-cleanup daily at 03:17 UTC, keeps 7 days of runs',
    });
    expect(await job()).toHaveLength(1);
  });

  it("the job's command keeps the last 7 days and deletes older runs, also ones that never ended", async () => {
    await fresh.query(`truncate cron.job_run_details`);
    await fresh.query(
      `insert into cron.job_run_details (jobid, command, status, start_time, end_time) values
         (1, 'old', 'succeeded', now() - interval '8 days', now() - interval '8 days'),
         (1, 'old, never ended', 'running', now() - interval '9 days', null),
         (1, 'recent', 'succeeded', now() - interval '1 day', now() - interval '1 day'),
         (1, 'running now', 'running', now(), null)`,
    );
    await fresh.query((await job())[0]!.command);
    const left = (await fresh.query<{ command: string }>(`select command from cron.job_run_details order by start_time`)).rows;
    expect(left.map((r) => r.command)).toEqual(['recent', 'running now']);
  });

  it('API roles cannot call the scheduling function', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      const { ok } = await one<{ ok: boolean }>(`select has_function_privilege($1, 'private.schedule_cron_history_cleanup()', 'execute') as ok`, [role]);
      expect(ok, role).toBe(false);
    }
  });
});

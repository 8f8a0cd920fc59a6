-- pg_cron records every run in cron.job_run_details and never deletes one (issue 41 part 3): the
-- push-dispatch tick every 5 s (17,280 runs a day) and the AI sweeper every 30 s (2,880) add ~20,000
-- rows a day, ~7.3 million a year, on a table nobody may index (it belongs to the managed extension).
-- Supabase's answer is a retention job (supabase.com/kb/troubleshooting/supabase_troubleshooting_cron,
-- "Solution 1: Implement a retention policy"): a daily pg_cron job that deletes runs older than
-- 7 days. A run that never recorded its end (the server restarted mid-run) is judged by its start, so
-- it is not kept forever.
-- pg_cron lets a job touch only its own user's rows (the table's RLS: username = current_user); these
-- jobs are all scheduled by the role that runs the migrations, so the cleanup, scheduled by that role
-- too, reaches every one of them.
-- Harmless where pg_cron is absent (the local stack, whose workers need no cron): the function says
-- what is missing. If pg_cron is enabled after this migration ran, run
-- `select private.schedule_cron_history_cleanup();` once; re-running only replaces the job of that
-- name (cron.schedule(name, …) upserts). Looked up by signature, as the other schedules
-- (20261123000300_ai_reply_schedule.sql).
create function private.schedule_cron_history_cleanup() returns text
language plpgsql volatile set search_path = ''
as $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null
     or to_regclass('cron.job_run_details') is null then
    return 'skipped: pg_cron is not enabled';
  end if;
  execute $q$select cron.schedule(
    'cron-history-cleanup', '17 3 * * *',
    'delete from cron.job_run_details where coalesce(end_time, start_time) < now() - interval ''7 days''')$q$;
  return 'scheduled: cron-history-cleanup daily at 03:17 UTC, keeps 7 days of runs';
end $$;
revoke all on function private.schedule_cron_history_cleanup() from public, anon, authenticated, service_role;

select private.schedule_cron_history_cleanup();

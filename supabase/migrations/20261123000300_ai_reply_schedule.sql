-- Hosted AI replies (issue 17 item 4). On a Supabase project nothing listens to NOTIFY ai_reply_jobs
-- (the local stack's worker does, supabase/local/workers.ts), so the ai-reply-worker function must be
-- called over HTTP: right after a job is queued (a pg_net request from a trigger, like a Supabase
-- database webhook) and every 30 seconds by pg_cron as a sweeper for retries and lost requests.
-- Both follow Supabase's "Scheduling Edge Functions" guide: the project URL and the key live in Vault
-- (vault.create_secret(…, 'project_url') and (…, 'service_role_key')) and never in a migration.
--
-- Harmless where pg_cron / pg_net are absent (the local stack): the trigger does nothing and
-- private.schedule_ai_reply_worker() reports what is missing. Enable the extensions first (runbook
-- in README.md, "Deploying to a Supabase project"); if they come after this migration ran, run
-- `select private.schedule_ai_reply_worker();` once. Calling it again changes nothing: pg_cron's
-- cron.schedule(name, …) replaces the job of that name.
-- Extensions are looked up by function signature, not pg_extension, so the SQL resolves the very
-- functions it calls (tests/db/ai-reply-schedule.test.ts installs stand-ins with these signatures):
-- net.http_post(url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer) as
-- in supabase/postgres migrations/db/init-scripts/00000000000003-post-setup.sql, and pg_cron's
-- cron.schedule(job_name text, schedule text, command text) (interval schedules such as
-- '30 seconds' need pg_cron 1.5+, which Supabase ships).

-- POSTs to <project_url>/functions/v1/ai-reply-worker with the key from Vault. pg_net queues the
-- request in this transaction and sends it after commit, so a rolled-back job wakes nobody. Returns
-- the pg_net request id, or null when pg_net or the Vault secrets are missing.
create function private.invoke_ai_reply_worker() returns bigint
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_url text;
  v_key text;
  v_id bigint;
begin
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null
     or to_regclass('vault.decrypted_secrets') is null then
    return null;
  end if;
  execute $q$select max(decrypted_secret) filter (where name = 'project_url'),
                    max(decrypted_secret) filter (where name = 'service_role_key')
               from vault.decrypted_secrets where name in ('project_url', 'service_role_key')$q$
    into v_url, v_key;
  if v_url is null or v_key is null then
    return null;
  end if;
  execute $q$select net.http_post(url := $1, body := '{}'::jsonb, params := '{}'::jsonb,
                                  headers := $2, timeout_milliseconds := 55000)$q$
    into v_id
    using rtrim(v_url, '/') || '/functions/v1/ai-reply-worker',
          jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_key);
  return v_id;
end $$;
revoke all on function private.invoke_ai_reply_worker() from public, anon, authenticated, service_role;

-- One wake-up per inserting statement (a user message queues at most one job).
create function private.tg_ai_reply_jobs_wake() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.invoke_ai_reply_worker();
  return null;
end $$;
revoke all on function private.tg_ai_reply_jobs_wake() from public, anon, authenticated, service_role;

create trigger t50_wake_worker after insert on public.ai_reply_jobs
  for each statement execute function private.tg_ai_reply_jobs_wake();

-- Schedules (or re-schedules) the sweeper. Returns what it did, for the runbook's SQL editor step.
create function private.schedule_ai_reply_worker() returns text
language plpgsql volatile set search_path = ''
as $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null then
    return 'skipped: pg_cron is not enabled';
  end if;
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null then
    return 'skipped: pg_net is not enabled';
  end if;
  execute $q$select cron.schedule('ai-reply-worker', '30 seconds', 'select private.invoke_ai_reply_worker()')$q$;
  return 'scheduled: ai-reply-worker every 30 seconds';
end $$;
revoke all on function private.schedule_ai_reply_worker() from public, anon, authenticated, service_role;

select private.schedule_ai_reply_worker();

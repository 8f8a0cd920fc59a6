-- A member's send never fails because the AI worker's wake-up failed (issue 35). On a Supabase
-- project the wake-up (20261123000300_ai_reply_schedule.sql) runs inside send_message's transaction:
-- the ai_reply_jobs insert fires t50_wake_worker, which reads the Vault secrets and queues a pg_net
-- request. Any error there (pg_net missing a grant or its queue failing, Vault undecryptable, a
-- malformed project_url) used to abort the statement and so the member's message. Now the wake-up
-- runs in its own subtransaction (a plpgsql exception block): on error only the wake-up is rolled
-- back, a WARNING names the error (Postgres logs; the Logs Explorer on hosted), and the job stays
-- 'pending' for the pg_cron sweep (every 30 s, private.invoke_ai_reply_worker()), which is how
-- retries and lost requests were already picked up.
-- query_canceled (statement timeout, cancel) is not caught by `others`, so a cancelled send still
-- ends as PostgreSQL decides. Push has no wake-up inside a send: its cron tick
-- (20261124000520_push_dispatch_schedule.sql) calls push-dispatch, never a member's statement.
create or replace function private.tg_ai_reply_jobs_wake() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  begin
    perform private.invoke_ai_reply_worker();
  exception when others then
    raise warning 'ai-reply-worker wake-up failed, the job stays queued for the sweep: % (SQLSTATE %)', sqlerrm, sqlstate;
  end;
  return null;
end $$;
revoke all on function private.tg_ai_reply_jobs_wake() from public, anon, authenticated, service_role;

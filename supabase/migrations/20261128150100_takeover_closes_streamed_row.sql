-- A takeover closes the AI's half-written row (issue 39; sync/SPEC.md R13 and R14 meet here).
-- A human taking a conversation cancels its AI jobs (20261128120000), and the database then refuses
-- the worker's writes, including the final one that would clear payload.streaming
-- (finish_ai_reply_job answers 'lost' for a job that is no longer running). Left alone, the row
-- would show a caret and 'Zastaviť' forever. So the cancellation itself finishes the job's row:
-- streaming cleared, marked stopped, text as written (a payload-only update, which the handoff rule
-- allows). Runs inside the takeover's transaction, after the jobs were locked (lock order of R14).
create function private.tg_ai_job_cancelled_closes_row() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.messages m
     set payload = coalesce(m.payload, '{}'::jsonb) - 'streaming' || jsonb_build_object('stopped', true)
   where m.conversation_id = new.conversation_id
     and m.client_correlation_id = new.id
     and m.payload ? 'streaming';
  return null;
end $$;
revoke all on function private.tg_ai_job_cancelled_closes_row() from public, anon, authenticated, service_role;

create trigger t90_ai_job_cancelled_closes_row
  after update of status on public.ai_reply_jobs
  for each row when (new.status = 'cancelled' and old.status is distinct from 'cancelled')
  execute function private.tg_ai_job_cancelled_closes_row();

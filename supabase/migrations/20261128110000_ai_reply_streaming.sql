-- Streamed AI replies (issue 39, sync/SPEC.md R13). The worker (supabase/functions/_shared/ai/
-- process-job.ts) writes ONE message row per job while the provider streams: the row is inserted at
-- the first batch (correlation id = job id, as before, so a job still has exactly one reply) and its
-- text is updated at most ~5 times a second with payload.streaming = true. Every update takes the
-- account's next change number (20261122000300_change_feed.sql), so the gap-free feed and realtime's
-- UPDATE events carry the growing row to every device unchanged; the last update clears the flag
-- and may set payload.stopped or payload.interrupted.
--
-- Ownership of a running job: only the worker that holds the claim (locked_by) may write; each write
-- extends the 2-minute lease, so a reply streaming for minutes is not claimed a second time. A worker
-- whose claim was taken answers 'lost' and stops writing.
--
-- Stop (stop_ai_reply) is a flag on the job that the worker reads on each batched write or check
-- (every 200 ms, process-job.ts FLUSH_MS): no LISTEN is needed, so the same works from an Edge
-- Function on a hosted project. Retry (retry_ai_reply) of an interrupted answer and the wall-clock
-- continuation both put the same job back in the queue: it continues the same row.

alter table public.ai_reply_jobs add column stop_requested_at timestamptz;

-- Wakes a worker for a job put back in the queue: NOTIFY for the local stack's worker, pg_net for a
-- hosted project (20261123000300_ai_reply_schedule.sql; does nothing where pg_net is absent).
create function private.wake_ai_reply_worker(p_job_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform pg_notify('ai_reply_jobs', p_job_id::text);
  perform private.invoke_ai_reply_worker();
end $$;
revoke all on function private.wake_ai_reply_worker(uuid) from public, anon, authenticated, service_role;

-- The running job of p_job_id when p_worker still holds it, locked; null otherwise.
create function private.held_ai_job(p_job_id uuid, p_worker text) returns public.ai_reply_jobs
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.ai_reply_jobs;
begin
  select * into v from public.ai_reply_jobs where id = p_job_id for update;
  if v.id is null then
    raise exception 'Job not found' using errcode = 'P0002';
  end if;
  if v.status <> 'running' or v.locked_by is distinct from p_worker then
    return null;
  end if;
  return v;
end $$;
revoke all on function private.held_ai_job(uuid, text) from public, anon, authenticated, service_role;

-- One batched write of a streaming reply (p_text = the whole text so far), or with p_text null a
-- check only. Answers 'go', 'stop' (a member asked to stop: nothing is written, the worker finishes
-- with 'stopped') or 'lost' (the claim is no longer this worker's).
create function public.ai_reply_progress(p_job_id uuid, p_worker text, p_text text default null)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_job public.ai_reply_jobs := private.held_ai_job(p_job_id, p_worker);
  v public.messages;
begin
  if v_job.id is null then
    return 'lost';
  end if;
  if v_job.stop_requested_at is not null then
    return 'stop';
  end if;
  if p_text is not null and p_text <> '' then
    select * into v from public.messages m
     where m.conversation_id = v_job.conversation_id and m.client_correlation_id = v_job.id;
    if v.id is null then
      perform private.job_message(v_job, p_text, 'specialist',
        jsonb_build_object('ai_job_id', v_job.id, 'streaming', true));
    elsif v.text is distinct from p_text then
      update public.messages
         set text = p_text,
             payload = coalesce(payload, '{}'::jsonb) - 'interrupted' || jsonb_build_object('streaming', true)
       where id = v.id;
    end if;
  end if;
  update public.ai_reply_jobs set run_after = now() + interval '2 minutes', updated_at = now()
   where id = p_job_id;
  return 'go';
end $$;

-- The end of one run of a streaming job. p_outcome:
--   done        the provider finished: the row's final text, streaming cleared, job done;
--   stopped     a member stopped it: the text so far, payload.stopped, job done;
--   interrupted the provider failed mid-answer: the text so far, payload.interrupted (the app offers
--               'Skúsiť znova', retry_ai_reply), job failed;
--   continue    the run reached its wall-clock bound: the text so far stays streaming and the same
--               job is queued again at once to continue the row (never cut silently);
--   refused     a write was refused by the database (e.g. a human owns the conversation): the job
--               ends quietly, the message is not touched again.
-- A stop requested meanwhile turns 'continue' into 'stopped'. Answers the outcome applied, or 'lost'.
create function public.finish_ai_reply_job(p_job_id uuid, p_worker text, p_text text, p_outcome text)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_job public.ai_reply_jobs := private.held_ai_job(p_job_id, p_worker);
  v_outcome text := p_outcome;
  v public.messages;
  v_flags jsonb;
begin
  if p_outcome not in ('done', 'stopped', 'interrupted', 'continue', 'refused') then
    raise exception 'Unknown outcome %', p_outcome using errcode = '22023';
  end if;
  if v_job.id is null then
    return 'lost';
  end if;
  if v_outcome = 'refused' then
    update public.ai_reply_jobs
       set status = 'done', last_error = 'write refused', locked_by = null, updated_at = now()
     where id = p_job_id;
    return v_outcome;
  end if;
  if v_outcome = 'continue' and v_job.stop_requested_at is not null then
    v_outcome := 'stopped';
  end if;
  v_flags := case v_outcome
               when 'stopped' then '{"stopped": true}'::jsonb
               when 'interrupted' then '{"interrupted": true}'::jsonb
               when 'continue' then '{"streaming": true}'::jsonb
               else '{}'::jsonb end;
  select * into v from public.messages m
   where m.conversation_id = v_job.conversation_id and m.client_correlation_id = v_job.id;
  if v.id is null and coalesce(p_text, '') <> '' then
    perform private.job_message(v_job, p_text, 'specialist',
      jsonb_build_object('ai_job_id', v_job.id) || v_flags);
  elsif v.id is not null then
    update public.messages
       set text = coalesce(nullif(p_text, ''), text),
           payload = coalesce(payload, '{}'::jsonb) - 'streaming' - 'interrupted' - 'stopped' || v_flags
     where id = v.id;
  end if;
  if v_outcome = 'continue' then
    update public.ai_reply_jobs
       set status = 'pending', attempts = 0, locked_by = null, run_after = now(), updated_at = now()
     where id = p_job_id;
    perform private.wake_ai_reply_worker(p_job_id);
  else
    update public.ai_reply_jobs
       set status = case v_outcome when 'interrupted' then 'failed' else 'done' end,
           last_error = case v_outcome when 'interrupted' then 'interrupted mid-answer' end,
           locked_by = null, updated_at = now()
     where id = p_job_id;
  end if;
  return v_outcome;
end $$;

-- The AI reply p_message_id when the caller is a member of its account; 404 for a message the
-- caller cannot see (a member of another account learns nothing) and for one no job wrote.
create function private.member_ai_reply(p_message_id uuid) returns public.messages
language plpgsql stable security definer set search_path = ''
as $$
declare
  v public.messages;
begin
  select * into v from public.messages m where m.id = p_message_id;
  if v.id is null or not public.is_account_member(v.account_id) or v.source is distinct from 'ai' then
    perform private.raise_not_found('Message not found');
  end if;
  return v;
end $$;
revoke all on function private.member_ai_reply(uuid) from public, anon, authenticated, service_role;

-- The job that writes the reply v (its correlation id), locked; 404 when there is none.
create function private.reply_job(v public.messages) returns public.ai_reply_jobs
language plpgsql volatile security definer set search_path = ''
as $$
declare
  j public.ai_reply_jobs;
begin
  select * into j from public.ai_reply_jobs
   where id = v.client_correlation_id and conversation_id = v.conversation_id
   for update;
  if j.id is null then
    perform private.raise_not_found('Message not found');
  end if;
  return j;
end $$;
revoke all on function private.reply_job(public.messages) from public, anon, authenticated, service_role;

-- 'Zastaviť' from any device of the account's members: a running job stops at its worker's next
-- check (≤ 200 ms); a continuation still queued is finished here at once. A reply that is no longer
-- streaming is left as it is (a second Stop, or a Stop racing the last write, changes nothing).
create function public.stop_ai_reply(p_message_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_msg public.messages := private.member_ai_reply(p_message_id);
  v_job public.ai_reply_jobs := private.reply_job(v_msg);
begin
  if coalesce((v_msg.payload ->> 'streaming')::boolean, false) is false then
    return;
  end if;
  if v_job.status = 'running' then
    update public.ai_reply_jobs set stop_requested_at = now(), updated_at = now() where id = v_job.id;
  else
    update public.messages
       set payload = coalesce(payload, '{}'::jsonb) - 'streaming' || '{"stopped": true}'::jsonb
     where id = v_msg.id;
    update public.ai_reply_jobs set status = 'done', stop_requested_at = now(), locked_by = null, updated_at = now()
     where id = v_job.id;
  end if;
end $$;

-- 'Skúsiť znova' on an interrupted answer: the same job is queued again and continues the same row
-- from its stored text. Anything but an interrupted AI answer is a 400.
create function public.retry_ai_reply(p_message_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_msg public.messages := private.member_ai_reply(p_message_id);
  v_job public.ai_reply_jobs := private.reply_job(v_msg);
begin
  if coalesce((v_msg.payload ->> 'interrupted')::boolean, false) is false then
    raise exception 'Only an interrupted answer can be retried' using errcode = 'P0001';
  end if;
  update public.messages
     set payload = coalesce(payload, '{}'::jsonb) - 'interrupted' || '{"streaming": true}'::jsonb
   where id = v_msg.id;
  update public.ai_reply_jobs
     set status = 'pending', attempts = 0, run_after = now(), locked_by = null, last_error = null,
         stop_requested_at = null, updated_at = now()
   where id = v_job.id;
  perform private.wake_ai_reply_worker(v_job.id);
end $$;

revoke all on function public.ai_reply_progress(uuid, text, text) from public, anon, authenticated;
revoke all on function public.finish_ai_reply_job(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.ai_reply_progress(uuid, text, text) to service_role;
grant execute on function public.finish_ai_reply_job(uuid, text, text, text) to service_role;
revoke all on function public.stop_ai_reply(uuid) from public, anon;
revoke all on function public.retry_ai_reply(uuid) from public, anon;
grant execute on function public.stop_ai_reply(uuid) to authenticated, service_role;
grant execute on function public.retry_ai_reply(uuid) to authenticated, service_role;

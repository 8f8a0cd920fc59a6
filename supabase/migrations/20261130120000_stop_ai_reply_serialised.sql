-- Stop and retry decide on the reply as it is AFTER the worker's last write (issue 39, sync/SPEC.md
-- R13.5, R13.9). Before, stop_ai_reply / retry_ai_reply read the message row first, unlocked, and
-- only then took the job's row lock (private.reply_job). Under READ COMMITTED a worker write that
-- held the job's lock at that moment (ai_reply_progress, finish_ai_reply_job: both lock the job
-- first, private.held_ai_job) committed while the call waited, and the call went on with the
-- message as it was BEFORE that write: a Stop racing the final write of a whole answer marked it
-- 'stopped' (and an interrupted one 'stopped' + done, so 'Skúsiť znova' no longer continued it), and
-- two devices' 'Skúsiť znova' both queued the job, the second taking the claim from the worker the
-- first had already started.
--
-- Now both calls lock the job first (the order every worker write takes: job, then message), then
-- read the message again under that lock (FOR UPDATE) and decide on that row and that job. A worker
-- write is thus wholly before the call (the call sees its result) or wholly after it (it sees the
-- call's stop_requested_at / status under the same job lock: ai_reply_progress answers 'stop' and
-- writes nothing). tests/db/ai-stop-race.test.ts interleaves them deterministically.

-- A member's AI reply and its job, both locked, the job first: 404 unless the caller is a member
-- (private.member_ai_reply reads only the message's identity); then the job's row lock, after which
-- no worker write of this reply runs concurrently; then the message as that lock leaves it.
create function private.locked_ai_reply(p_message_id uuid, out job public.ai_reply_jobs, out msg public.messages)
language plpgsql volatile security definer set search_path = ''
as $$
begin
  msg := private.member_ai_reply(p_message_id);
  job := private.reply_job(msg);
  select * into msg from public.messages m where m.id = msg.id for update;
end $$;
revoke all on function private.locked_ai_reply(uuid) from public, anon, authenticated, service_role;

-- 'Zastaviť' (R13.5): signature, grants and answers as in 20261128110000; only the order changed.
create or replace function public.stop_ai_reply(p_message_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_locked record := private.locked_ai_reply(p_message_id);
  v_job public.ai_reply_jobs := v_locked.job;
  v_msg public.messages := v_locked.msg;
begin
  if coalesce((v_msg.payload ->> 'streaming')::boolean, false) is false then
    return; -- finished (whole, stopped or interrupted) before this Stop: left as it is
  end if;
  if v_job.status = 'running' then
    -- The worker's next ai_reply_progress (≤ one tick) answers 'stop' and finishes the row.
    update public.ai_reply_jobs set stop_requested_at = now(), updated_at = now() where id = v_job.id;
  else
    -- No run holds it (a continuation or retry still queued): finished here at once.
    update public.messages
       set payload = coalesce(payload, '{}'::jsonb) - 'streaming' || '{"stopped": true}'::jsonb
     where id = v_msg.id;
    update public.ai_reply_jobs set status = 'done', stop_requested_at = now(), locked_by = null, updated_at = now()
     where id = v_job.id;
  end if;
end $$;

-- 'Skúsiť znova' (R13.4): as in 20261128110000, deciding on the row read under the job's lock, so a
-- second retry of the same answer (another device, a double tap) is the 400 it is when sequential.
create or replace function public.retry_ai_reply(p_message_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_locked record := private.locked_ai_reply(p_message_id);
  v_job public.ai_reply_jobs := v_locked.job;
  v_msg public.messages := v_locked.msg;
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

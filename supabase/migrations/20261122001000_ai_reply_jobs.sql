-- The worker side of ai_reply_jobs (supabase/functions/_shared/ai/process-job.ts), service role only.
-- Exactly one reply per user message: the reply (or the final failure notice) is inserted with the
-- job id as its client_correlation_id, unique per conversation, so a worker that crashes after
-- writing and a later retry of the same job still leave one message.

-- Claims the next due job: pending and due, or running with an expired lease (a crashed worker).
-- The claim is a lease of 2 minutes; SKIP LOCKED lets several workers drain the queue in parallel.
create function public.claim_ai_reply_job(p_worker text) returns setof public.ai_reply_jobs
language sql volatile security definer set search_path = ''
as $$
  update public.ai_reply_jobs j
     set status = 'running', attempts = j.attempts + 1, locked_by = p_worker,
         run_after = now() + interval '2 minutes', updated_at = now()
   where j.id = (
     select q.id from public.ai_reply_jobs q
      where q.status in ('pending', 'running') and q.run_after <= now() and q.attempts < 10
      order by q.run_after
      limit 1
      for update skip locked)
  returning j.*
$$;

-- Inserts a server message with the job id as correlation id unless it is already there.
create function private.job_message(p_job public.ai_reply_jobs, p_text text, p_direction text, p_payload jsonb)
returns public.messages
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.messages;
begin
  select * into v from public.messages m
   where m.conversation_id = p_job.conversation_id and m.client_correlation_id = p_job.id;
  if v.id is null then
    insert into public.messages (conversation_id, text, type, direction, source, payload, client_correlation_id)
    values (p_job.conversation_id, p_text, 'text', p_direction, 'ai', p_payload, p_job.id)
    on conflict (conversation_id, client_correlation_id) do nothing
    returning * into v;
  end if;
  return v;
end $$;

create function public.complete_ai_reply_job(p_job_id uuid, p_text text) returns public.messages
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_job public.ai_reply_jobs;
  v public.messages;
begin
  select * into v_job from public.ai_reply_jobs where id = p_job_id for update;
  if v_job.id is null then
    raise exception 'Job not found' using errcode = 'P0002';
  end if;
  v := private.job_message(v_job, p_text, 'specialist', jsonb_build_object('ai_job_id', v_job.id));
  update public.ai_reply_jobs
     set status = 'done', last_error = null, locked_by = null, updated_at = now()
   where id = p_job_id;
  return v;
end $$;

-- A failed attempt: back to pending after p_retry_in_ms, or, with p_final_text, the job fails for
-- good and the conversation gets a system notice instead of silence.
create function public.fail_ai_reply_job(p_job_id uuid, p_error text, p_retry_in_ms int, p_final_text text default null)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_job public.ai_reply_jobs;
begin
  select * into v_job from public.ai_reply_jobs where id = p_job_id for update;
  if v_job.id is null then
    raise exception 'Job not found' using errcode = 'P0002';
  end if;
  if v_job.status = 'done' then
    return;
  end if;
  if p_final_text is not null then
    perform private.job_message(v_job, p_final_text, 'system',
      jsonb_build_object('system_type', 'ai_reply_failed', 'color', 'red', 'ai_job_id', v_job.id));
    update public.ai_reply_jobs
       set status = 'failed', last_error = left(p_error, 2000), locked_by = null, updated_at = now()
     where id = p_job_id;
  else
    update public.ai_reply_jobs
       set status = 'pending', last_error = left(p_error, 2000), locked_by = null,
           run_after = now() + make_interval(secs => greatest(coalesce(p_retry_in_ms, 0), 0) / 1000.0),
           updated_at = now()
     where id = p_job_id;
  end if;
end $$;

revoke all on function public.claim_ai_reply_job(text) from public, anon, authenticated;
revoke all on function public.complete_ai_reply_job(uuid, text) from public, anon, authenticated;
revoke all on function public.fail_ai_reply_job(uuid, text, int, text) from public, anon, authenticated;
grant execute on function public.claim_ai_reply_job(text) to service_role;
grant execute on function public.complete_ai_reply_job(uuid, text) to service_role;
grant execute on function public.fail_ai_reply_job(uuid, text, int, text) to service_role;
revoke all on function private.job_message(public.ai_reply_jobs, text, text, jsonb) from public;

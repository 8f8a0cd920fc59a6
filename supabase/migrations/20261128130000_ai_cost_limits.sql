-- What AI replies may cost (issue 36 N5). A fresh self-registered member sent 40 messages in 0.37 s
-- and got 40 provider calls. The database decides, at the moment a job would be created (the
-- ai_reply_jobs insert of private.tg_messages_after_insert), so the local stack and a hosted project
-- behave alike and no client can skip it:
--   1. A burst is one job. A conversation holds at most one pending job: a user message that arrives
--      while one waits becomes that job's anchor (the reply is written for the conversation up to
--      the newest message, process-job.ts loadContext), and no new job is made. A conversation's
--      next job is due no sooner than AI_BURST after the previous one was queued, so the messages
--      of a burst gather in it: a lone message is answered at once, 40 in a second by two calls.
--   2. Quotas tied to the plan (public.plans): replies per user per hour and per account per day,
--      counted as jobs queued (one job, one provider call; a retry of the same job is not a new one).
--      Over a quota the message is stored as always, no job is made, and the conversation gets one
--      system notice (payload.system_type 'ai_limit') saying in Slovak which limit, until when, and
--      that the message is kept but not answered automatically; further messages before the next
--      reply add no second notice.
-- Admins read a plan's limits on the account settings page (src/admin/settings/PlanCard.tsx).

alter table public.plans
  add column ai_replies_per_user_hour int not null default 30 check (ai_replies_per_user_hour >= 0),
  add column ai_replies_per_account_day int not null default 200 check (ai_replies_per_account_day >= 0);
update public.plans set ai_replies_per_user_hour = 30, ai_replies_per_account_day = 200 where code = 'FREE';
update public.plans set ai_replies_per_user_hour = 120, ai_replies_per_account_day = 2000 where code = 'PRO';
update public.plans set ai_replies_per_user_hour = 600, ai_replies_per_account_day = 20000 where code = 'ENTERPRISE';

-- Who asked (the message's sender), for the per-user quota.
alter table public.ai_reply_jobs add column requested_by uuid references auth.users (id) on delete set null;
create index ai_reply_jobs_requested_by_idx on public.ai_reply_jobs (requested_by, created_at) where requested_by is not null;
create index ai_reply_jobs_account_created_idx on public.ai_reply_jobs (account_id, created_at);

-- The gap that gathers a burst into one job.
create function private.ai_burst() returns interval
language sql immutable set search_path = ''
as $$ select interval '3 seconds' $$;
revoke all on function private.ai_burst() from public;

-- The limit notice, once per unanswered stretch of a conversation.
create function private.ai_limit_notice(p_conversation_id uuid, p_text text, p_limit text) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if exists (
    select 1 from public.messages m
     where m.conversation_id = p_conversation_id
       and m.direction = 'system' and m.payload ->> 'system_type' = 'ai_limit'
       and m.created_at > coalesce((select max(r.created_at) from public.messages r
                                     where r.conversation_id = p_conversation_id
                                       and r.direction in ('specialist', 'ai')), '-infinity')) then
    return;
  end if;
  insert into public.messages (conversation_id, text, type, direction, source, payload, sender_user_id)
  values (p_conversation_id, p_text, 'text', 'system', 'ai',
          jsonb_build_object('system_type', 'ai_limit', 'limit', p_limit, 'color', 'red'), null);
end $$;
revoke all on function private.ai_limit_notice(uuid, text, text) from public;

create function private.tg_ai_reply_jobs_cost() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_merged uuid;
  v_plan public.plans;
  v_used int;
  v_first timestamptz;
  v_last timestamptz;
  v_local text;
  v_sender uuid;
begin
  -- 1. The conversation's waiting job takes this message. Concurrent sends of one conversation are
  -- serialised by its lock (private.lock_conversation in the messages guard). A job the worker is
  -- claiming right now is skipped, never waited for: the claim's own trigger (t60_taken_read) marks
  -- messages read under this very conversation's lock, which this send holds, so waiting would be a
  -- deadlock; the message then gets a job of its own, which the spacing below delays.
  update public.ai_reply_jobs j
     set message_id = NEW.message_id, updated_at = now()
   where j.id = (select q.id from public.ai_reply_jobs q
                  where q.conversation_id = NEW.conversation_id and q.status = 'pending'
                  order by q.created_at desc limit 1
                  for update skip locked)
  returning j.id into v_merged;
  if v_merged is not null then
    return null;
  end if;

  select m.sender_user_id into v_sender from public.messages m where m.id = NEW.message_id;
  NEW.requested_by := v_sender;
  select p.* into v_plan from public.accounts a join public.plans p on p.id = a.plan_id where a.id = NEW.account_id;

  -- 2. The plan's quotas (an account without a plan row has none to apply).
  if v_plan.id is not null then
    if NEW.requested_by is not null then
      select count(*), min(j.created_at) into v_used, v_first from public.ai_reply_jobs j
       where j.requested_by = NEW.requested_by and j.created_at > now() - interval '1 hour';
      if v_used >= v_plan.ai_replies_per_user_hour then
        v_local := to_char((coalesce(v_first, now()) + interval '1 hour') at time zone 'Europe/Bratislava', 'HH24:MI');
        perform private.ai_limit_notice(NEW.conversation_id, format(
          'Dosiahli ste limit odpovedí AI špecialistov vo vašom pláne %s: %s za hodinu na používateľa. '
          'Vaša správa je uložená, automatická odpoveď na ňu však nepríde. Napíšte znova po %s '
          'alebo požiadajte správcu účtu o vyšší plán.',
          v_plan.name, v_plan.ai_replies_per_user_hour, v_local), 'user_hour');
        return null;
      end if;
    end if;
    select count(*), min(j.created_at) into v_used, v_first from public.ai_reply_jobs j
     where j.account_id = NEW.account_id and j.created_at > now() - interval '1 day';
    if v_used >= v_plan.ai_replies_per_account_day then
      v_local := to_char((coalesce(v_first, now()) + interval '1 day') at time zone 'Europe/Bratislava', 'DD.MM. HH24:MI');
      perform private.ai_limit_notice(NEW.conversation_id, format(
        'Váš účet vyčerpal denný limit odpovedí AI špecialistov v pláne %s: %s za deň. '
        'Vaša správa je uložená, automatická odpoveď na ňu však nepríde. Napíšte znova po %s '
        'alebo požiadajte správcu účtu o vyšší plán.',
        v_plan.name, v_plan.ai_replies_per_account_day, v_local), 'account_day');
      return null;
    end if;
  end if;

  -- 3. Spacing: the next job of a conversation is due AI_BURST after the previous one was queued.
  select max(j.created_at) into v_last from public.ai_reply_jobs j where j.conversation_id = NEW.conversation_id;
  if v_last is not null and v_last + private.ai_burst() > now() then
    NEW.run_after := greatest(NEW.run_after, v_last + private.ai_burst());
  end if;
  return NEW;
end $$;
revoke all on function private.tg_ai_reply_jobs_cost() from public;

create trigger t05_cost before insert on public.ai_reply_jobs
  for each row execute function private.tg_ai_reply_jobs_cost();

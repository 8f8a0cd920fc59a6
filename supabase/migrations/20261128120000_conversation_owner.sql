-- Conversation owner and handoff to a human (issue 39, sync/SPEC.md R14).
--
-- Every conversation has an owner state, kept here and synced to devices like any conversation field
-- (to_jsonb(c) in sync_pull and the realtime record carry the new columns):
--   'ai'       the AI specialist answers (the default; every existing conversation starts here)
--   'waiting'  the user asked for a human (owner_requested_at); the AI is silent meanwhile
--   'human'    a named human specialist (a Chatwoot agent, owner_agent_name) owns it
-- The AI answers only in 'ai'. It gets there again only when Chatwoot resolves the conversation
-- (R14.5); a reopen goes back to the assignee or to 'waiting'.
--
-- THE GUARANTEE (R14.3): a conversation not owned by the AI never gets another AI message, whatever
-- the worker does. Three rules, all in this database:
--   1. the takeover (private.set_conversation_owner) cancels every pending or running AI job of the
--      conversation in the same transaction, and a cancelled job stays cancelled;
--   2. no AI job is created for a conversation the AI does not own (BEFORE INSERT on ai_reply_jobs),
--      so a message queued offline and delivered after the takeover reaches the human only (R14.4);
--   3. an INSERT of an AI message (source 'ai' or direction 'ai'), or an UPDATE that changes its
--      text or type, into a conversation the AI does not own is refused with SQLSTATE 'PT409',
--      message 'conversation_owned_by_human' (PostgREST answers 409; PostgREST docs "Errors",
--      custom status codes PTxyz). The worker (h-stream: the growing reply row) must treat it as "stop now": abort
--      the provider, no retry, no failure notice. A payload-only UPDATE (closing a streamed row, e.g.
--      clearing its streaming flag) stays allowed, so a row cut by the takeover can be finished.
-- Rules 1 and 3 take the conversation's row lock (private.lock_conversation, FOR NO KEY UPDATE), the
-- same lock the takeover's UPDATE takes: an AI write either commits before the takeover (and is
-- history) or waits for it, then sees the new owner and is refused. Nothing commits after it.

-- ---------------------------------------------------------------- the state
alter table public.conversations
  add column owner_state text not null default 'ai' check (owner_state in ('ai', 'waiting', 'human')),
  add column owner_requested_at timestamptz,
  add column owner_agent_name text check (char_length(owner_agent_name) <= 200);

-- Jobs cancelled by a takeover: 'cancelled' (never claimed again, never answered).
alter table public.ai_reply_jobs drop constraint ai_reply_jobs_status_check;
alter table public.ai_reply_jobs add constraint ai_reply_jobs_status_check
  check (status in ('pending', 'running', 'done', 'failed', 'cancelled'));

-- ---------------------------------------------------------------- moving the owner
-- The one place the owner changes. p_state 'waiting': a request by the user (kept as it is when a
-- human already owns the conversation, and the first request time is kept when asked again);
-- 'human': a named agent (the name kept when none is given); 'ai': handed back, request and name
-- cleared. Leaving 'ai' cancels the conversation's AI jobs (rule 1). Returns the stored row.
create function private.set_conversation_owner(p_conversation_id uuid, p_state text, p_agent_name text default null)
returns public.conversations
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
begin
  if p_state not in ('ai', 'waiting', 'human') then
    raise exception 'Unknown owner state %', p_state using errcode = '22023';
  end if;
  -- Lock order: the conversation's open jobs BEFORE the conversation row, the order in which
  -- complete_ai_reply_job and fail_ai_reply_job take them (job FOR UPDATE, then the message insert
  -- locks the conversation). The other order deadlocked with a worker completing at that moment
  -- (found by tests/db/handoff-race.test.ts). A worker mid-complete is waited for: its reply commits
  -- before the takeover, which is history, not a write after it.
  perform 1 from public.ai_reply_jobs j
    where j.conversation_id = p_conversation_id and j.status in ('pending', 'running')
    order by j.id for update;
  v_conv := private.lock_conversation(p_conversation_id);
  if v_conv.id is null then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  if p_state = 'waiting' then
    if v_conv.owner_state = 'ai' then
      update public.conversations
         set owner_state = 'waiting', owner_requested_at = now(), owner_agent_name = null
       where id = p_conversation_id returning * into v_conv;
    end if;
  elsif p_state = 'human' then
    update public.conversations
       set owner_state = 'human',
           owner_agent_name = coalesce(nullif(left(btrim(p_agent_name), 200), ''), owner_agent_name)
     where id = p_conversation_id returning * into v_conv;
  else
    update public.conversations
       set owner_state = 'ai', owner_requested_at = null, owner_agent_name = null
     where id = p_conversation_id returning * into v_conv;
  end if;
  if v_conv.owner_state <> 'ai' then
    -- SKIP LOCKED: a job that appeared between the two locks above and is being completed right now
    -- holds its row and waits for the conversation, which this transaction holds; waiting for it
    -- would deadlock. It is refused by rule 3 when it gets the lock, and turned 'cancelled' by the
    -- job trigger below the next time anything updates it (its fail, or a claim after its lease).
    update public.ai_reply_jobs
       set status = 'cancelled', last_error = 'handoff', locked_by = null, updated_at = now()
     where id in (select j.id from public.ai_reply_jobs j
                   where j.conversation_id = p_conversation_id and j.status in ('pending', 'running')
                   for update skip locked);
  end if;
  return v_conv;
end $$;
revoke all on function private.set_conversation_owner(uuid, text, text) from public;

-- The server side (the Chatwoot webhook, service role): takes over, hands back, or marks waiting.
create function public.set_conversation_owner(p_conversation_id uuid, p_state text, p_agent_name text default null)
returns jsonb
language sql volatile security definer set search_path = ''
as $$
  select to_jsonb(private.set_conversation_owner(p_conversation_id, p_state, p_agent_name))
$$;
revoke all on function public.set_conversation_owner(uuid, text, text) from public, anon, authenticated;
grant execute on function public.set_conversation_owner(uuid, text, text) to service_role;

-- 'Chcem hovoriť s človekom' (R14.2): a member of the conversation's account (the account the caller
-- acts for, as send_message asks it) moves an active conversation to 'waiting'. Anyone else gets the
-- same 404 as for an id that does not exist; a completed conversation is a 400.
create function public.request_human(p_conversation_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
begin
  if p_conversation_id is null then
    raise exception 'conversation_id is required' using errcode = '22023';
  end if;
  v_conv := private.lock_conversation(p_conversation_id);
  if v_conv.id is null or not public.is_account_member(v_conv.account_id) then
    perform private.raise_not_found('Conversation not found');
  end if;
  if v_conv.status <> 'active' then
    raise exception 'Conversation is completed' using errcode = '23514',
      hint = 'A completed conversation cannot be handed to a human.';
  end if;
  return to_jsonb(private.set_conversation_owner(p_conversation_id, 'waiting'));
end $$;
revoke all on function public.request_human(uuid) from public, anon;
grant execute on function public.request_human(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------- rule 1: cancelled stays cancelled
-- fail_ai_reply_job (a worker that was mid-answer) would put a cancelled job back to 'pending'; and a
-- job the takeover had to skip (see above) is cancelled when next updated (claimed or failed) while
-- the AI does not own its conversation.
create function private.tg_ai_jobs_keep_cancelled() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if OLD.status = 'cancelled' then
    return OLD;
  end if;
  if exists (select 1 from public.conversations c
              where c.id = NEW.conversation_id and c.owner_state <> 'ai') then
    NEW.status := 'cancelled';
    NEW.last_error := 'handoff';
    NEW.locked_by := null;
  end if;
  return NEW;
end $$;
revoke all on function private.tg_ai_jobs_keep_cancelled() from public;
create trigger t05_keep_cancelled before update on public.ai_reply_jobs
  for each row when (OLD.status = 'cancelled' or NEW.status in ('pending', 'running'))
  execute function private.tg_ai_jobs_keep_cancelled();

-- ---------------------------------------------------------------- rule 2: no job unless the AI owns it
create function private.tg_ai_jobs_owner() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
begin
  -- The message insert that creates the job already holds this lock (re-entrant).
  v_conv := private.lock_conversation(NEW.conversation_id);
  if v_conv.owner_state is distinct from 'ai' then
    return null; -- the message stays, for the human; no AI answer is queued
  end if;
  return NEW;
end $$;
revoke all on function private.tg_ai_jobs_owner() from public;
create trigger t05_owner before insert on public.ai_reply_jobs
  for each row execute function private.tg_ai_jobs_owner();

-- ---------------------------------------------------------------- rule 3: the AI's writes refused
-- An AI message: written by the AI worker (source 'ai', private.job_message) or with direction 'ai'.
create function private.is_ai_message(m public.messages) returns boolean
language sql immutable set search_path = ''
as $$ select m.source is not distinct from 'ai' or m.direction is not distinct from 'ai' $$;
revoke all on function private.is_ai_message(public.messages) from public;

create function private.tg_messages_ai_silenced() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
begin
  if TG_OP = 'UPDATE' then
    if not (private.is_ai_message(OLD) or private.is_ai_message(NEW)) then
      return NEW;
    end if;
    if NEW.text is not distinct from OLD.text and NEW.type is not distinct from OLD.type then
      return NEW; -- payload-only: a streamed row may still be closed
    end if;
  elsif not private.is_ai_message(NEW) then
    return NEW;
  end if;
  v_conv := private.lock_conversation(NEW.conversation_id);
  if v_conv.owner_state is distinct from 'ai' then
    raise sqlstate 'PT409' using
      message = 'conversation_owned_by_human',
      detail = format('Conversation %s is owned by %s; the AI may not write into it.', v_conv.id,
                      case v_conv.owner_state when 'human' then 'a human specialist' else 'nobody yet (waiting for a human)' end),
      hint = 'Stop generating; do not retry (sync/SPEC.md R14.3).';
  end if;
  return NEW;
end $$;
revoke all on function private.tg_messages_ai_silenced() from public;
-- After t10_guard (which locks the conversation for inserts and stamps source for clients), before
-- the counter (t50): a refused row takes no change number.
create trigger t20_ai_silenced before insert or update on public.messages
  for each row execute function private.tg_messages_ai_silenced();

-- Row rules that hold whatever path a write takes (PostgREST table calls, RPCs, server code).
-- The guard functions are SECURITY INVOKER so private.caller_is_client() sees who issued the
-- statement: an API client (anon/authenticated) gets the member rules; server code (service_role,
-- SECURITY DEFINER functions, migrations) is trusted. Privileged steps go through private helpers.

-- ---------------------------------------------------------------- messages
-- Before insert: lock the conversation, copy its account_id, stamp created_at, mirror the correlation
-- id. For clients additionally: only direction 'user', only into an active conversation of the
-- account they act for, sender = the caller, source 'app', no forged Chatwoot ids or read marks.
create function private.tg_messages_guard_insert() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_client boolean := private.caller_is_client();
  v_conv public.conversations;
begin
  v_conv := private.lock_conversation(NEW.conversation_id);
  if v_conv.id is null
     or (v_client and v_conv.account_id is distinct from public.current_account_id()) then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  NEW.account_id := v_conv.account_id;

  if NEW.client_correlation_id is null and NEW.payload ? 'client_correlation_id' then
    NEW.client_correlation_id := nullif(NEW.payload ->> 'client_correlation_id', '')::uuid;
  end if;
  if NEW.client_correlation_id is not null then
    NEW.payload := coalesce(NEW.payload, '{}'::jsonb)
                   || jsonb_build_object('client_correlation_id', NEW.client_correlation_id);
  end if;

  if v_client then
    if NEW.direction is distinct from 'user' then
      raise exception 'Only user messages can be sent from the app' using errcode = '42501';
    end if;
    if v_conv.status <> 'active' then
      raise exception 'Conversation is completed' using errcode = '23514',
        hint = 'A completed conversation accepts no new messages.';
    end if;
    if NEW.type not in ('text', 'rich') then
      raise exception 'Message type % cannot be sent from the app', NEW.type using errcode = '42501';
    end if;
    if char_length(coalesce(NEW.text, '')) > 10000 or octet_length(coalesce(NEW.payload::text, '')) > 32768 then
      raise exception 'Message is too long' using errcode = '22001';
    end if;
    NEW.sender_user_id := auth.uid();
    NEW.source := 'app';
    NEW.chatwoot_message_id := null;
    NEW.read_at := null;
    NEW.created_at := clock_timestamp();
  elsif NEW.created_at is null then
    NEW.created_at := clock_timestamp();
  end if;
  return NEW;
end $$;

-- Before update: messages are immutable for clients. The one client UPDATE that passes is a repeated
-- PostgREST upsert (on_conflict=conversation_id,client_correlation_id, resolution=merge-duplicates)
-- resolving onto the stored row, which the counter trigger flagged just before (poradna.repeat_of):
-- it keeps the stored row, so the upsert answers with it unchanged and takes no number. Any other
-- client update is refused. Server code may edit content (Chatwoot message_updated) but never moves
-- a message.
create function private.tg_messages_guard_update() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if private.caller_is_client() then
    if current_setting('poradna.repeat_of', true)
       = OLD.conversation_id::text || '/' || OLD.client_correlation_id::text then
      perform set_config('poradna.repeat_of', '', true);
      return OLD;
    end if;
    raise exception 'Messages cannot be changed from the app' using errcode = '42501';
  end if;
  NEW.id := OLD.id;
  NEW.conversation_id := OLD.conversation_id;
  NEW.account_id := OLD.account_id;
  return NEW;
end $$;

-- After insert: the conversation's last_message_at (and so its updated_at and change number; the
-- account's last activity moved with the message's own number), and a durable AI reply job when a
-- user writes to an AI specialist on the direct path (no Chatwoot conversation). NOTIFY wakes the
-- local worker at commit.
create function private.tg_messages_after_insert() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
  v_job uuid;
begin
  update public.conversations
     set last_message_at = NEW.created_at
   where id = NEW.conversation_id
     and (last_message_at is null or last_message_at < NEW.created_at)
  returning * into v_conv;
  if v_conv.id is null then
    select * into v_conv from public.conversations where id = NEW.conversation_id;
  end if;

  if NEW.direction = 'user' and v_conv.chatwoot_conversation_id is null
     and exists (select 1 from public.specialists s where s.id = v_conv.specialist_id and s.is_ai) then
    insert into public.ai_reply_jobs (message_id, conversation_id, account_id, specialist_id)
    values (NEW.id, NEW.conversation_id, NEW.account_id, v_conv.specialist_id)
    on conflict (message_id) do nothing
    returning id into v_job;
    if v_job is not null then
      perform pg_notify('ai_reply_jobs', v_job::text);
    end if;
  end if;
  return null;
end $$;

create trigger t10_guard before insert on public.messages
  for each row execute function private.tg_messages_guard_insert();
create trigger t10_guard_update before update on public.messages
  for each row execute function private.tg_messages_guard_update();
create trigger t60_after_insert after insert on public.messages
  for each row execute function private.tg_messages_after_insert();

-- ---------------------------------------------------------------- conversations
-- Clients never insert conversations (start_conversation does) and may change only archived_at;
-- last_message_at is the server's (the message trigger keeps it), so a client's value is ignored
-- rather than refused: the spec's direct path updates it after inserting a message.
-- Nobody moves a conversation to another account.
create function private.tg_conversations_guard() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if TG_OP = 'INSERT' then
    if private.caller_is_client() then
      raise exception 'Conversations are started with start_conversation' using errcode = '42501';
    end if;
    return NEW;
  end if;
  if NEW.account_id is distinct from OLD.account_id or NEW.id is distinct from OLD.id then
    raise exception 'A conversation cannot move to another account' using errcode = '42501';
  end if;
  if private.caller_is_client() then
    NEW.last_message_at := OLD.last_message_at;
    if (to_jsonb(NEW) - 'archived_at' - 'updated_at' - 'change_seq')
       is distinct from (to_jsonb(OLD) - 'archived_at' - 'updated_at' - 'change_seq') then
      raise exception 'Only archived_at can be changed from the app' using errcode = '42501';
    end if;
    NEW.updated_at := OLD.updated_at;
  end if;
  return NEW;
end $$;

create trigger t10_guard before insert or update on public.conversations
  for each row execute function private.tg_conversations_guard();

-- ---------------------------------------------------------------- read cursors
-- A cursor belongs to its user, sits in one conversation, points at a message of that conversation,
-- and only moves forward in the (created_at, id) order: a stale or reordered write keeps the newer
-- position (silently, so retries and out-of-order deliveries are harmless).
create function private.tg_read_cursors_guard() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_client boolean := private.caller_is_client();
  v_account uuid;
  v_at timestamptz;
begin
  if TG_OP = 'UPDATE' then
    NEW.user_id := OLD.user_id;
    NEW.conversation_id := OLD.conversation_id;
  elsif v_client and NEW.user_id is distinct from auth.uid() then
    raise exception 'A read cursor belongs to its own user' using errcode = '42501';
  end if;

  -- As the caller: RLS hides conversations and messages of other accounts from clients.
  select c.account_id into v_account from public.conversations c where c.id = NEW.conversation_id;
  if v_account is null then
    raise exception 'Conversation not found' using errcode = 'P0002';
  end if;
  NEW.account_id := v_account;

  if NEW.last_read_message_id is not null then
    select m.created_at into v_at from public.messages m
     where m.id = NEW.last_read_message_id and m.conversation_id = NEW.conversation_id;
    if v_at is null then
      raise exception 'Message not found in this conversation' using errcode = 'P0002';
    end if;
  end if;
  NEW.last_read_at := v_at;

  if TG_OP = 'UPDATE' then
    if OLD.last_read_message_id is not null
       and (NEW.last_read_message_id is null
            or (NEW.last_read_at, NEW.last_read_message_id) < (OLD.last_read_at, OLD.last_read_message_id)) then
      NEW.last_read_message_id := OLD.last_read_message_id;
      NEW.last_read_at := OLD.last_read_at;
    end if;
    NEW.updated_at := OLD.updated_at; -- the counter trigger stamps it when something really changed
  end if;
  return NEW;
end $$;

create trigger t10_guard before insert or update on public.read_cursors
  for each row execute function private.tg_read_cursors_guard();

-- ---------------------------------------------------------------- accounts
-- plan (code) and plan_id always agree; an unknown code raises 'invalid plan code'. Clients (super
-- admins through PostgREST) may change only name, owner_email, plan, plan_id and specialists_mode.
create function private.tg_accounts_guard() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_code text;
  v_id uuid;
begin
  if TG_OP = 'UPDATE' and private.caller_is_client() then
    if (to_jsonb(NEW) - 'name' - 'owner_email' - 'plan' - 'plan_id' - 'specialists_mode' - 'updated_at')
       is distinct from (to_jsonb(OLD) - 'name' - 'owner_email' - 'plan' - 'plan_id' - 'specialists_mode' - 'updated_at') then
      raise exception 'Only name, owner_email, plan and specialists_mode can be changed' using errcode = '42501';
    end if;
  end if;

  if TG_OP = 'INSERT' and NEW.plan_id is null
     or TG_OP = 'UPDATE' and NEW.plan is distinct from OLD.plan and NEW.plan_id is not distinct from OLD.plan_id then
    -- The code changed (or a new account names only its code): plan_id follows it.
    select p.id into v_id from public.plans p where p.code = NEW.plan;
    if v_id is null then
      raise exception 'invalid plan code: %', NEW.plan using errcode = '22023';
    end if;
    NEW.plan_id := v_id;
  elsif TG_OP = 'INSERT' or NEW.plan_id is distinct from OLD.plan_id then
    -- plan_id given or changed: the code follows it; an update naming two different plans is refused.
    select p.code into v_code from public.plans p where p.id = NEW.plan_id;
    if v_code is null then
      raise exception 'invalid plan id: %', NEW.plan_id using errcode = '22023';
    end if;
    if TG_OP = 'UPDATE' and NEW.plan is distinct from OLD.plan and NEW.plan is distinct from v_code then
      raise exception 'plan % and plan_id % name different plans', NEW.plan, NEW.plan_id using errcode = '22023';
    end if;
    NEW.plan := v_code;
  end if;

  if TG_OP = 'UPDATE' and (NEW.name, NEW.owner_email, NEW.plan, NEW.plan_id, NEW.specialists_mode)
       is distinct from (OLD.name, OLD.owner_email, OLD.plan, OLD.plan_id, OLD.specialists_mode) then
    NEW.updated_at := now();
  end if;
  return NEW;
end $$;

-- Switching an account to DEFAULT drops its explicit assignments (admin-area.md section 4), whether
-- the switch comes from admin_set_specialists_mode, another RPC or a direct table update.
create function private.tg_accounts_mode_default() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.account_specialists where account_id = NEW.id;
  return null;
end $$;

-- Only the listed columns fire these, so the change counter's UPDATE (change_seq only) stays cheap.
create trigger t10_guard before insert or update of name, owner_email, plan, plan_id, specialists_mode, change_seq, created_at, id, last_activity_at
  on public.accounts for each row execute function private.tg_accounts_guard();
create trigger t60_mode_default after update of specialists_mode on public.accounts
  for each row when (NEW.specialists_mode = 'DEFAULT' and OLD.specialists_mode is distinct from 'DEFAULT')
  execute function private.tg_accounts_mode_default();

revoke all on function private.tg_messages_guard_insert() from public;
revoke all on function private.tg_messages_guard_update() from public;
revoke all on function private.tg_messages_after_insert() from public;
revoke all on function private.tg_conversations_guard() from public;
revoke all on function private.tg_read_cursors_guard() from public;
revoke all on function private.tg_accounts_guard() from public;
revoke all on function private.tg_accounts_mode_default() from public;

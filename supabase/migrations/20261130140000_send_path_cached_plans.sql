-- A send's fixed costs cut, same rules (issue 41 part 3: send_message at >= 0.8x its floor, row 10a⁗).
--
-- Where a send's database time went (bench/RESULTS.md, 2026-11-29 04:00–05:10): no statement of the
-- send path is slow (auto_explain with log_nested_statements: each one a primary-key or unique-index
-- probe of microseconds). The time is in the machinery around them, counted exactly with callgrind
-- (instructions of one backend in single-user mode, 100 sends, each its own transaction): 4.14 M
-- instructions a send at 6a686d6, 3.11 M at ab4bd47 (2026-11-27, the run of 663 sends/s). Of the
-- difference, the feed broadcast at commit (R18.1, kept) is 0.45 M. This cuts, per send:
--   - t05_client_precheck folds into t10_guard, which it repeated: both locked the conversation and
--     asked current_account_id for every API client's message (0.28 M).
--   - SQL-language helpers PostgreSQL cannot inline (a SET clause or SECURITY DEFINER prevents it) go
--     through the SQL-function executor at every call; on PostgreSQL 15 and 17 (hosted's) they are
--     also parsed and planned again in every statement that calls them. A send made 14 such calls.
--     current_account_id, lock_conversation and own_sent_message become PL/pgSQL (a session keeps
--     their plans; SECURITY DEFINER and the pinned search_path stay). caller_is_client, is_ai_message
--     and message_max_chars keep their SET search_path = '' although it is all that keeps the planner
--     from inlining them: hosted's Security Advisor (supabase/splinter lints/0011_function_search_
--     path_mutable.sql) warns on every function of these schemas without it, and
--     tests/db/migrations.test.ts holds every function to that lint (the helpers' cut, 0.23 M with
--     inlining, is a little less without it).
--   - accounts.t10_guard_update: every send's counter bump matched its column list, so PostgreSQL
--     rebuilt its five-comparison WHEN clause from the catalog's node text and evaluated it, always
--     false there (0.15 M). Split in two triggers with the same meaning; a bump now reads a
--     one-comparison WHEN only (0.09 M).
-- Together 3.51 M instructions a send (-15 %) with those three inlined; as shipped, with them kept
-- out of line, a little more. Not done: skipping t20_ai_silenced and t20_attachments
-- (nothing to do for a plain user message) by WHEN clauses cost 0.04 M more than calling them (measured
-- with the helpers inlined) — a WHEN clause that is read costs about what a small trigger call does.

-- The account the caller acts for (20261122000200): the impersonated account of a super admin with an
-- active impersonation, else the caller's own account (account_users, one per user); null for anon,
-- service_role and users without an account. impersonations is keyed by admin_user_id and
-- account_users.user_id is unique, so each lookup finds at most one row, as the scalar subqueries did.
create or replace function public.current_account_id() returns uuid
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_account uuid;
begin
  if v_uid is null then
    return null;
  end if;
  select i.account_id into v_account
    from public.impersonations i
    join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
   where i.admin_user_id = v_uid;
  if v_account is not null then
    return v_account;
  end if;
  select au.account_id into v_account from public.account_users au where au.user_id = v_uid;
  return v_account;
end $$;

-- Locks a conversation row for the rest of the transaction and returns it (null fields if absent).
-- Lock order unchanged (20261122000200): a message insert locks its conversation before the account's
-- change counter.
create or replace function private.lock_conversation(p_conversation_id uuid) returns public.conversations
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.conversations;
begin
  select c.* into v from public.conversations c where c.id = p_conversation_id for no key update;
  return v;
end $$;

-- The caller's own message of this correlation id in any account (20261124001000).
create or replace function private.own_sent_message(p_conversation_id uuid, p_client_correlation_id uuid)
returns public.messages
language plpgsql stable security definer set search_path = ''
as $$
declare
  v public.messages;
begin
  select m.* into v from public.messages m
   where m.conversation_id = p_conversation_id
     and m.client_correlation_id = p_client_correlation_id
     and m.sender_user_id = auth.uid();
  return v;
end $$;

-- t05_client_precheck (20261128000210) folds into the guard it ran just before: both locked the
-- conversation and asked current_account_id for every API client's message (a fifth of a send's
-- instructions between them). The guard now does, in t05's order, for API clients: the composer's
-- length limit as a 400 (22001) first, then "not found" as a 404 (PostgREST's PGRST form); for server
-- code an unknown conversation stays P0002 as before. Nothing ran between t05 and t10 (triggers of one
-- event fire in name order), so every message meets the same checks in the same order.
create or replace function private.tg_messages_guard_insert() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_client boolean := private.caller_is_client();
  v_conv public.conversations;
begin
  if v_client and char_length(coalesce(NEW.text, '')) > private.message_max_chars() then
    raise exception 'Message is too long: at most % characters', private.message_max_chars() using errcode = '22001',
      hint = 'Split the text into several messages.';
  end if;
  v_conv := private.lock_conversation(NEW.conversation_id);
  if v_conv.id is null
     or (v_client and v_conv.account_id is distinct from public.current_account_id()) then
    if v_client then
      perform private.raise_not_found('Conversation not found');
    end if;
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

drop trigger t05_client_precheck on public.messages;
drop function private.tg_messages_client_precheck();

-- accounts.t10_guard_update (20261124100000): every send bumps its account's counter (change_seq,
-- last_activity_at, from tg_assign_change_seq), which matched the trigger's column list, so PostgreSQL
-- rebuilt its WHEN clause from the catalog's node text and evaluated it in every send: 4 % of a
-- send's instructions, for a condition that is false for every counter bump. Split in two with the
-- same meaning: an API client's UPDATE of any guarded column reaches the guard (the refusals) under a
-- one-comparison WHEN; server code reaches it only when it names a plan, name, owner e-mail or mode
-- column and changes one (plan and plan_id kept in step, updated_at). Exactly one of the two can fire
-- for an UPDATE (one wants an API client, the other anyone else), so the guard runs when and as often
-- as before; a counter bump names none of the second one's columns and is passed over before its
-- WHEN is read.
drop trigger t10_guard_update on public.accounts;
create trigger t10_guard_update before update of name, owner_email, plan, plan_id, specialists_mode, change_seq, created_at, id, last_activity_at
  on public.accounts for each row
  when (current_user in ('authenticated', 'anon'))
  execute function private.tg_accounts_guard();
create trigger t10_guard_update_plan before update of name, owner_email, plan, plan_id, specialists_mode
  on public.accounts for each row
  when (current_user not in ('authenticated', 'anon')
        and (NEW.name, NEW.owner_email, NEW.plan, NEW.plan_id, NEW.specialists_mode)
            is distinct from (OLD.name, OLD.owner_email, OLD.plan, OLD.plan_id, OLD.specialists_mode))
  execute function private.tg_accounts_guard();

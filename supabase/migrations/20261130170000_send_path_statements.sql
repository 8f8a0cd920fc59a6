-- A send's statements, expressions and trigger checks cut, same rules (issue 41 part 3: send_message
-- at >= 0.8x its floor, row 10a⁗; the rounds before: 20261130140000, 20261130150000, 20261130163000).
--
-- Measured with bench/send-instructions.sh (callgrind, instructions of one backend a send, each send
-- its own transaction; bench/RESULTS.md, 2026-11-29 session 32): 3.317 M a send before, each part's
-- saving below. Where a send's instructions went: no statement is slow; what costs is PostgreSQL
-- rebuilding per statement what the catalog holds as node text (each CHECK constraint ~35 k, each
-- trigger WHEN clause that is read 35-60 k), the executor's start and end for every SQL statement a
-- trigger runs (PERFORM included), PL/pgSQL initialising each simple expression once per transaction,
-- and SQL helpers that cannot be inlined. A trigger call itself is cheap (an empty one 3-8 k). Every
-- rule stays; each part says why it is the same.

-- ---------------------------------------------------------------------------------------------------
-- 1. private.caller_is_client() and private.is_ai_message() written out where a send calls them. Their
--    pinned search_path (Security Advisor lint 0011) keeps the planner from inlining them, so each call
--    ran the SQL-function executor with a search_path switch: 4 a send, 0.08 M instructions. The same
--    expression in place, evaluated in the same context (t15 is SECURITY DEFINER, so there, as before,
--    current_user is the definer's and the client test is false); the helpers stay for other callers.

CREATE OR REPLACE FUNCTION private.tg_messages_guard_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_client boolean := (current_user in ('authenticated', 'anon')); -- private.caller_is_client(), written out
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
end $function$;

CREATE OR REPLACE FUNCTION private.tg_messages_attachments()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_list jsonb;
  v_out jsonb := '[]'::jsonb;
  v_folder text;
  v_entry jsonb;
  v_seen text[] := '{}';
begin
  -- (current_user in (...)): private.caller_is_client(), written out
  if not (current_user in ('authenticated', 'anon')) or NEW.payload is null or not (NEW.payload ? 'attachments') then
    return NEW;
  end if;
  v_list := NEW.payload -> 'attachments';
  if jsonb_typeof(v_list) <> 'array' then
    perform private.attachment_refused('payload.attachments must be an array');
  end if;
  if jsonb_array_length(v_list) > private.max_attachments() then
    perform private.attachment_refused(format('At most %s attachments a message', private.max_attachments()));
  end if;
  -- t10_guard copied the conversation's account, which it checked is the one the caller acts for.
  v_folder := NEW.account_id::text || '/' || NEW.conversation_id::text || '/';
  for v_entry in select e from jsonb_array_elements(v_list) e loop
    v_entry := private.checked_attachment(v_entry, v_folder);
    if (v_entry ->> 'id') = any (v_seen) then
      perform private.attachment_refused('Attachment ids must differ');
    end if;
    v_seen := v_seen || (v_entry ->> 'id');
    v_out := v_out || jsonb_build_array(v_entry);
  end loop;
  NEW.payload := jsonb_set(NEW.payload, '{attachments}', v_out);
  return NEW;
end $function$;

CREATE OR REPLACE FUNCTION private.tg_conversations_guard()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if TG_OP = 'INSERT' then
    if (current_user in ('authenticated', 'anon')) then
      raise exception 'Conversations are started with start_conversation' using errcode = '42501';
    end if;
    return NEW;
  end if;
  if NEW.account_id is distinct from OLD.account_id or NEW.id is distinct from OLD.id then
    raise exception 'A conversation cannot move to another account' using errcode = '42501';
  end if;
  if (current_user in ('authenticated', 'anon')) then
    NEW.last_message_at := OLD.last_message_at;
    if (to_jsonb(NEW) - 'archived_at' - 'updated_at' - 'change_seq')
       is distinct from (to_jsonb(OLD) - 'archived_at' - 'updated_at' - 'change_seq') then
      raise exception 'Only archived_at can be changed from the app' using errcode = '42501';
    end if;
    NEW.updated_at := OLD.updated_at;
  end if;
  return NEW;
end $function$;

CREATE OR REPLACE FUNCTION private.tg_messages_written_and_support()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_raw jsonb := NEW.payload -> 'written_at';
  v_at timestamptz;
  v_conv_created timestamptz;
  v_support boolean;
  v_conv public.conversations;
begin
  if NEW.payload is not null and NEW.payload ? 'written_at' then
    if v_raw = 'null'::jsonb then
      NEW.payload := NEW.payload - 'written_at';
    else
      if jsonb_typeof(v_raw) <> 'string'
         or (v_raw #>> '{}') !~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|z|[+-]\d{2}(:?\d{2})?)$' then
        perform private.written_at_refused();
      end if;
      begin
        v_at := (v_raw #>> '{}')::timestamptz;
      exception when others then
        perform private.written_at_refused();
      end;
      select c.created_at into v_conv_created from public.conversations c where c.id = NEW.conversation_id;
      v_at := greatest(least(v_at, NEW.created_at), coalesce(v_conv_created, NEW.created_at));
      NEW.payload := jsonb_set(NEW.payload, '{written_at}',
        to_jsonb(to_char(v_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')));
    end if;
  end if;

  if NEW.direction = 'user' then
    v_support := NEW.sender_user_id is not null
      and exists (select 1 from public.app_users u where u.user_id = NEW.sender_user_id and u.role = 'super_admin')
      and not exists (select 1 from public.account_users au
                       where au.user_id = NEW.sender_user_id and au.account_id = NEW.account_id);
    if v_support then
      NEW.payload := coalesce(NEW.payload, '{}'::jsonb) || '{"sent_by_support": true}'::jsonb;
    elsif NEW.payload ? 'sent_by_support' then
      NEW.payload := NEW.payload - 'sent_by_support';
    end if;
  elsif (current_user in ('authenticated', 'anon')) and NEW.payload ? 'sent_by_support' then
    NEW.payload := NEW.payload - 'sent_by_support';
  end if;

  -- t20_ai_silenced, INSERT: the AI writes only into a conversation the AI owns (R14.3).
  -- (private.is_ai_message(NEW), written out)
  if (NEW.source is not distinct from 'ai' or NEW.direction is not distinct from 'ai') then
    v_conv := private.lock_conversation(NEW.conversation_id);
    if v_conv.owner_state is distinct from 'ai' then
      raise sqlstate 'PT409' using
        message = 'conversation_owned_by_human',
        detail = format('Conversation %s is owned by %s; the AI may not write into it.', v_conv.id,
                        case v_conv.owner_state when 'human' then 'a human specialist' else 'nobody yet (waiting for a human)' end),
        hint = 'Stop generating; do not retry (sync/SPEC.md R14.3).';
    end if;
  end if;
  return NEW;
end $function$;

-- ---------------------------------------------------------------------------------------------------
-- 2. accounts.t10_guard_update without its WHEN clause: every send's counter bump (change_seq,
--    last_activity_at, by the SECURITY DEFINER numbering trigger) matches its column list, so PostgreSQL
--    rebuilt the WHEN from the catalog's node text and evaluated it, always false there: 0.06 M a send
--    (0.03 M net: the guard is now called for it and returns at once).
--    The guard now makes the same test first (TG_NAME: only this trigger; t10_guard on INSERT and
--    t10_guard_update_plan, which wants a caller that is not an API client, go on as before): an API
--    client's UPDATE reaches the refusals exactly as before; anyone else's passes unchanged.

CREATE OR REPLACE FUNCTION private.tg_accounts_guard()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_code text;
  v_id uuid;
begin
  -- t10_guard_update fires for every UPDATE of its columns (the server's counter bumps included) and
  -- guards API clients only: this was its WHEN clause (see above).
  if TG_NAME = 't10_guard_update' and current_user not in ('authenticated', 'anon') then
    return NEW;
  end if;
  if TG_OP = 'UPDATE' and (current_user in ('authenticated', 'anon')) then
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
end $function$;


drop trigger t10_guard_update on public.accounts;
create trigger t10_guard_update before update of name, owner_email, plan, plan_id, specialists_mode, change_seq, created_at, id, last_activity_at
  on public.accounts for each row execute function private.tg_accounts_guard();

-- ---------------------------------------------------------------------------------------------------
-- 3. conversations.t95_broadcast_update (R18.1) names every column but last_message_at. Its WHEN wants
--    last_message_at unchanged; an UPDATE whose SET list names no other column can only leave the row
--    unchanged (then t50 gives no number and the WHEN is false) or change last_message_at (the WHEN is
--    false): only tg_messages_after_insert's update does that (t10_guard resets last_message_at for API
--    clients). So the same updates are announced, and a send's conversation update is passed over
--    before its WHEN is read (0.04 M a send). A column added to conversations must be added here:
--    tests/db/send-path-statements.test.ts holds the list to the table's columns.

drop trigger t95_broadcast_update on public.conversations;
create constraint trigger t95_broadcast_update
  after update of id, account_id, specialist_id, status, archived_at, chatwoot_conversation_id, card_id,
                  created_at, updated_at, change_seq, owner_state, owner_requested_at, owner_agent_name
  on public.conversations deferrable initially deferred for each row
  when (NEW.change_seq <> OLD.change_seq and NEW.last_message_at is not distinct from OLD.last_message_at)
  execute function private.tg_broadcast_feed_change();

-- ---------------------------------------------------------------------------------------------------
-- 4. PERFORM of set_config and realtime.send becomes an assignment. PL/pgSQL runs PERFORM as a full
--    statement (executor start, run, end) but an assignment of a plain call as a simple expression:
--    6 statements a send fewer, 0.04 M. Same calls, same order, same arguments.

CREATE OR REPLACE FUNCTION private.tg_assign_change_seq()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_void text; -- a set_config's answer, unused (an assignment runs as a simple expression; PERFORM is a full statement)
  v_seq bigint;
  v_given text;
  v_moves boolean := false;
begin
  if TG_OP = 'UPDATE' then
    NEW.change_seq := OLD.change_seq;
    if NEW is not distinct from OLD then
      return NEW; -- nothing changed: no number, no hole
    end if;
    if TG_TABLE_NAME = 'conversations' then
      -- The number a new message reserved for this very update (tg_messages_after_insert sets it
      -- around its UPDATE and clears it after; only honoured from inside a trigger, never for a
      -- statement a client issued). It was taken under the account row's lock, which this
      -- transaction holds until commit, so the gap-free rule holds as for any other number.
      v_given := current_setting('poradna.conversation_seq', true);
      if v_given is not null and v_given <> '' and pg_trigger_depth() > 1
         and split_part(v_given, '/', 1) = NEW.id::text then
        v_void := set_config('poradna.conversation_seq', '', true);
        NEW.change_seq := split_part(v_given, '/', 2)::bigint;
        NEW.updated_at := now();
        return NEW;
      end if;
    end if;
  elsif TG_TABLE_NAME = 'messages' then
    -- (nested IFs: a record field of another table's NEW must not even be evaluated)
    -- No account lock here: t10_guard locked the conversation, which serialises every insert that
    -- could carry the same (conversation_id, client_correlation_id) (see the header, point 2).
    if NEW.client_correlation_id is not null then
      if exists (select 1 from public.messages m
                  where m.conversation_id = NEW.conversation_id
                    and m.client_correlation_id = NEW.client_correlation_id) then
        NEW.change_seq := 0; -- a repeat: ON CONFLICT resolves it, or the insert fails on the unique key
        -- Tells the update guard that the UPDATE which follows (ON CONFLICT DO UPDATE of this very
        -- row) is this repeat resolving, not a client editing a message.
        v_void := set_config('poradna.repeat_of',
                           NEW.conversation_id::text || '/' || NEW.client_correlation_id::text, true);
        return NEW;
      end if;
    end if;
    -- Will tg_messages_after_insert move the conversation's last_message_at? Same condition, on the
    -- row t10_guard locked; nothing else can change it before that AFTER trigger runs. Only one
    -- reservation may be pending: in a multi-row insert the AFTER triggers run after every row's
    -- BEFORE triggers, so later rows take one number and their conversation update its own.
    if coalesce(current_setting('poradna.conversation_seq', true), '') = '' then
      select c.last_message_at is null or c.last_message_at < NEW.created_at into v_moves
        from public.conversations c where c.id = NEW.conversation_id;
    end if;
  elsif TG_TABLE_NAME = 'read_cursors' then
    perform 1 from public.accounts where id = NEW.account_id for no key update;
    if exists (select 1 from public.read_cursors r
                where r.user_id = NEW.user_id and r.conversation_id = NEW.conversation_id) then
      NEW.change_seq := 0;
      return NEW;
    end if;
  end if;

  if TG_TABLE_NAME = 'messages' and TG_OP = 'INSERT' then
    -- The same row version also carries the account's last activity (v_admin_accounts): one
    -- account update per message instead of two.
    update public.accounts
       set change_seq = change_seq + case when coalesce(v_moves, false) then 2 else 1 end,
           last_activity_at = greatest(last_activity_at, NEW.created_at)
     where id = NEW.account_id
    returning change_seq into v_seq;
    if v_seq is not null and coalesce(v_moves, false) then
      -- Keyed by the message id: only this row's AFTER trigger takes it.
      v_void := set_config('poradna.conversation_seq',
                         NEW.conversation_id::text || '/' || v_seq::text || '/' || NEW.id::text, true);
      v_seq := v_seq - 1;
    end if;
  else
    update public.accounts set change_seq = change_seq + 1 where id = NEW.account_id
    returning change_seq into v_seq;
  end if;
  if v_seq is null then
    if TG_OP = 'UPDATE' then
      return NEW; -- the account is being deleted in this transaction (cascade): keep the old number
    end if;
    raise exception 'Account % not found', NEW.account_id using errcode = '23503';
  end if;
  NEW.change_seq := v_seq;
  if TG_TABLE_NAME in ('conversations', 'read_cursors') then
    NEW.updated_at := now();
  end if;
  return NEW;
end $function$;

CREATE OR REPLACE FUNCTION private.tg_broadcast_feed_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_void text; -- a set_config's answer, unused (an assignment runs as a simple expression; PERFORM is a full statement)
  v_topic text := 'account:' || NEW.account_id::text;
  v_seq bigint;
begin
  -- (an IF, not a CASE: another table's NEW.user_id must not even be evaluated)
  if TG_TABLE_NAME = 'read_cursors' then
    v_topic := 'user:' || NEW.user_id::text;
  end if;
  if current_setting('poradna.announced', true) = v_topic then
    return null; -- this transaction's last number on this topic is already announced
  end if;
  v_void := set_config('poradna.announced', v_topic, true);
  select a.change_seq into v_seq from public.accounts a where a.id = NEW.account_id;
  v_void := realtime.send(
    jsonb_build_object('v', 1, 'account_id', NEW.account_id, 'change_seq', coalesce(v_seq, NEW.change_seq)),
    'changed', v_topic, true);
  return null;
end $function$;

-- ---------------------------------------------------------------------------------------------------
-- 5. send_message names sender_user_id, so the column's default (auth.uid(), which parses the claims'
--    JSON) is not evaluated for an API client, whose sender t10_guard stamps with auth.uid() anyway;
--    any other caller gets auth.uid() as the default gave it (0.02 M a send).

CREATE OR REPLACE FUNCTION public.send_message(p_conversation_id uuid, p_text text, p_client_correlation_id uuid, p_payload jsonb DEFAULT NULL::jsonb)
 RETURNS messages
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v public.messages;
  v_elsewhere uuid;
  v_sender uuid;
begin
  if p_client_correlation_id is null then
    raise exception 'client_correlation_id is required' using errcode = '22023';
  end if;
  if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
    raise exception 'payload must be a JSON object' using errcode = '22023';
  end if;

  -- 1. A repeat answers with the stored row, also after the caller's account switched.
  v := private.own_sent_message(p_conversation_id, p_client_correlation_id);
  if v.id is not null then
    return v;
  end if;

  if not exists (select 1 from public.conversations c where c.id = p_conversation_id) then
    -- 2. Not of the account acted in. PostgREST's own error form (see 20261123001200).
    v_elsewhere := private.conversation_account_for_admin(p_conversation_id);
    if v_elsewhere is not null then
      raise sqlstate 'PGRST' using
        message = json_build_object(
          'code', 'P0001', 'message', 'Conversation is in another account', 'details', v_elsewhere::text,
          'hint', 'The super admin acts in another account now; send again from that account (details names it).')::text,
        detail = '{"status":409,"headers":{}}';
    end if;
    raise sqlstate 'PGRST' using
      message = '{"code":"P0002","message":"Conversation not found","details":null,"hint":null}',
      detail = '{"status":404,"headers":{}}';
  end if;

  if coalesce(btrim(p_text, E' \t\r\n'), '') = ''
     and (case when jsonb_typeof(p_payload -> 'attachments') = 'array'
               then jsonb_array_length(p_payload -> 'attachments') = 0 else true end) then
    raise exception 'Message text is empty' using errcode = '22023';
  end if;

  if current_user not in ('authenticated', 'anon') then
    v_sender := auth.uid();
  end if;
  insert into public.messages (conversation_id, text, type, direction, source, payload, client_correlation_id, sender_user_id)
  values (p_conversation_id, coalesce(p_text, ''), 'text', 'user', 'app', p_payload, p_client_correlation_id,
          v_sender)
  on conflict (conversation_id, client_correlation_id) do nothing
  returning * into v;

  if v.id is null then
    -- Another member's message with this correlation id (a client reusing ids): theirs, visible.
    select * into v from public.messages m
     where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  end if;
  return v;
end $function$;

-- ---------------------------------------------------------------------------------------------------
-- 6. The audit of an impersonated message insert (t60's part, 20261122000900) reads the impersonation
--    that current_account_id found for the same claims instead of parsing the claims and querying
--    impersonations again: current_account_id keeps it beside the account (and, for a caller without a
--    user id, keeps "none" too, so after any call poradna.acting_* are the current caller's). Same
--    query, same invalidation (20261130163000's t99 triggers on impersonations, app_users and
--    account_users), so the same messages are audited. 0.01 M a send with row 10a's short claims; the
--    claims' JSON parse it saves is ~60 k instructions with a hosted project's access token.

CREATE OR REPLACE FUNCTION public.current_account_id()
 RETURNS uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_void text; -- a set_config's answer, unused (an assignment runs as a simple expression; PERFORM is a full statement)
  v_key text := coalesce(current_setting('request.jwt.claim.sub', true), '') || '|'
                || coalesce(current_setting('request.jwt.claims', true), '');
  v_uid uuid;
  v_account uuid;
  v_impersonated uuid;
begin
  if current_setting('poradna.acting_key', true) = v_key then
    return nullif(current_setting('poradna.acting_account', true), '')::uuid;
  end if;
  v_uid := auth.uid();
  if v_uid is not null then
    -- impersonations is keyed by admin_user_id and account_users.user_id is unique: at most one row each.
    select i.account_id into v_impersonated
      from public.impersonations i
      join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
     where i.admin_user_id = v_uid;
    v_account := v_impersonated;
    if v_account is null then
      select au.account_id into v_account from public.account_users au where au.user_id = v_uid;
    end if;
  end if;
  -- The key last: the answer is only read under it.
  v_void := set_config('poradna.acting_account', coalesce(v_account::text, ''), true)
            || set_config('poradna.acting_impersonation', coalesce(v_impersonated::text, ''), true)
            || set_config('poradna.acting_user', coalesce(v_uid::text, ''), true)
            || set_config('poradna.acting_key', v_key, true);
  return v_account;
end $function$;

CREATE OR REPLACE FUNCTION private.tg_messages_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_void text; -- a set_config's answer, unused (an assignment runs as a simple expression; PERFORM is a full statement)
  v_conv public.conversations;
  v_job uuid;
  v_given text := current_setting('poradna.conversation_seq', true);
  v_prev public.messages;
  v_uid uuid;
  v_acting uuid;
  v_impersonated uuid;
  v_row jsonb;
  v_delay numeric;
  v_n int;
begin
  -- t90_reject_unsequenced (20261122000300): a row stored without a change number is refused.
  if NEW.change_seq <= 0 then
    raise exception 'Row of %.% was stored without a change number', TG_TABLE_SCHEMA, TG_TABLE_NAME
      using errcode = '23514';
  end if;

  -- t60_after_insert (20261124100000): the conversation's last_message_at, the AI reply job.
  if v_given is not null and v_given <> '' then
    if split_part(v_given, '/', 3) = NEW.id::text then
      -- This message reserved the conversation's number: the UPDATE below takes it (its t50).
      v_void := set_config('poradna.conversation_seq', split_part(v_given, '/', 1) || '/' || split_part(v_given, '/', 2), true);
    else
      v_given := null; -- another row's reservation (multi-row insert): leave it for that row
    end if;
  end if;
  update public.conversations
     set last_message_at = NEW.created_at
   where id = NEW.conversation_id
     and (last_message_at is null or last_message_at < NEW.created_at)
  returning * into v_conv;
  if v_given is not null and v_given <> '' then
    -- Taken by the UPDATE's t50, which clears it. Both sides test the same condition on the locked
    -- row, so it is always taken; were it not, the reserved number is left as a hole (harmless to
    -- the gap-free rule, which is about order) rather than failing the send, and must not leak into
    -- a later statement of this transaction.
    v_void := set_config('poradna.conversation_seq', '', true);
  end if;
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

  -- t65_read_on_reply (20261124000510): a human specialist's reply marks the user's earlier unread
  -- messages read.
  if NEW.direction = 'specialist' and NEW.source is distinct from 'ai' then
    select * into v_prev from public.messages m
     where m.conversation_id = NEW.conversation_id and m.direction = 'user' and m.read_at is null
       and (m.created_at, m.id) < (NEW.created_at, NEW.id)
     order by m.created_at desc, m.id desc limit 1;
    if v_prev.id is not null then
      perform private.mark_user_messages_read(NEW.conversation_id, v_prev.created_at, v_prev.id, NEW.created_at);
    end if;
  end if;

  -- t70_audit_impersonation (20261122000900), INSERT: a super admin's write while impersonating is
  -- audited; writes made by triggers (depth > 1) are part of the audited statement.
  if pg_trigger_depth() <= 1 then
    -- current_account_id keeps, beside the account, the impersonation it found for these claims (the
    -- same query, the same invalidation): a call makes poradna.acting_* this caller's.
    v_acting := public.current_account_id();
    v_impersonated := nullif(current_setting('poradna.acting_impersonation', true), '')::uuid;
    if v_impersonated is not null then
      v_uid := auth.uid();
      v_row := to_jsonb(NEW);
      insert into public.audit_log (actor_user_id, account_id, action, table_name, row_id, details)
      values (v_uid, NEW.account_id, 'impersonated.insert', TG_TABLE_NAME, NEW.id::text,
              jsonb_build_object('new', v_row) || jsonb_build_object('impersonated_account_id', v_impersonated));
    end if;
  end if;

  -- t70_push_enqueue (20261124000510): a push for every other member with a subscription, after the
  -- account's delay; nothing for a message older than an hour (an import).
  if NEW.direction in ('specialist', 'ai', 'system') and NEW.created_at >= now() - interval '1 hour' then
    select s.delay_seconds into v_delay from private.push_settings s;
    insert into public.push_notifications (message_id, user_id, conversation_id, due_at)
    select NEW.id, au.user_id, NEW.conversation_id, now() + make_interval(secs => coalesce(v_delay, 10))
      from public.account_users au
     where au.account_id = NEW.account_id
       and au.user_id is distinct from auth.uid()
       and exists (select 1 from public.push_subscriptions s where s.user_id = au.user_id)
    on conflict (message_id, user_id) do nothing;
    get diagnostics v_n = row_count;
    if v_n > 0 then
      perform pg_notify('push_notifications', NEW.id::text);
    end if;
  end if;
  return null;
end $function$;

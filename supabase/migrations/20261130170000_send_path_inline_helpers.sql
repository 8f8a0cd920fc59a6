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
--
-- Six files, one cut each (20261130170000 to 20261130170500); the savings are measured with all of
-- them applied in order, as bench/RESULTS.md (2026-11-29, session 32) gives them.

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

-- "Not found" is a 404, never a 500, for any id a caller cannot see (issue 36 N6), and the server
-- keeps the app's 8,000-character message limit (issue 36, info row).
--
-- The row guards and start_conversation raise SQLSTATE P0002 for an unknown or foreign id, which
-- PostgREST maps to 500 (its table: P0001 → 400, other P0* → 500): mark_read, start_conversation and a
-- message insert into another account's conversation answered 500. They now answer in PostgREST's own
-- error form (SQLSTATE 'PGRST', message = the JSON body, detail = the status; PostgREST docs "Raise
-- errors with HTTP Status Codes", v11.2+), keeping the body's code 'P0002' and message, as
-- 20261123001200_send_message_not_found.sql did for send_message.

create function private.raise_not_found(p_message text) returns void
language plpgsql volatile set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = json_build_object('code', 'P0002', 'message', p_message, 'details', null, 'hint', null)::text,
    detail = '{"status":404,"headers":{}}';
end $$;
revoke all on function private.raise_not_found(text) from public;
grant execute on function private.raise_not_found(text) to authenticated, service_role;

-- The longest message a member may send: the composer's limit, so a client that skips it meets the
-- same rule (the guard's 10,000 characters stay for server-written text).
create function private.message_max_chars() returns int
language sql immutable set search_path = ''
as $$ select 8000 $$;
revoke all on function private.message_max_chars() from public;
grant execute on function private.message_max_chars() to authenticated, service_role;

-- Messages: before the guard (t10_guard; triggers fire in name order), for API clients only, the
-- guard's own "not found" rule as a 404 and the length limit as a 400 (22001).
create function private.tg_messages_client_precheck() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_conv public.conversations;
begin
  if not private.caller_is_client() then
    return NEW;
  end if;
  if char_length(coalesce(NEW.text, '')) > private.message_max_chars() then
    raise exception 'Message is too long: at most % characters', private.message_max_chars() using errcode = '22001',
      hint = 'Split the text into several messages.';
  end if;
  -- The same lock the guard takes next (private.lock_conversation; re-entrant in one transaction).
  v_conv := private.lock_conversation(NEW.conversation_id);
  if v_conv.id is null or v_conv.account_id is distinct from public.current_account_id() then
    perform private.raise_not_found('Conversation not found');
  end if;
  return NEW;
end $$;
revoke all on function private.tg_messages_client_precheck() from public;
create trigger t05_client_precheck before insert on public.messages
  for each row execute function private.tg_messages_client_precheck();

-- Read cursors (mark_read and direct upserts): the guard's lookups, as the caller (RLS hides other
-- accounts), answered with 404 before the guard would raise P0002.
create function private.tg_read_cursors_not_found() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if not exists (select 1 from public.conversations c where c.id = NEW.conversation_id) then
    perform private.raise_not_found('Conversation not found');
  end if;
  if NEW.last_read_message_id is not null
     and not exists (select 1 from public.messages m
                      where m.id = NEW.last_read_message_id and m.conversation_id = NEW.conversation_id) then
    perform private.raise_not_found('Message not found in this conversation');
  end if;
  return NEW;
end $$;
revoke all on function private.tg_read_cursors_not_found() from public;
create trigger t05_not_found before insert or update on public.read_cursors
  for each row execute function private.tg_read_cursors_not_found();

-- start_conversation: its body stays (20261123001100); the function moves to private and the public
-- name becomes a wrapper that turns its P0002 ('Account ID not found', 'Specialist not found') into
-- a 404. The signature and grants are unchanged for PostgREST and installed apps.
alter function public.start_conversation(uuid, text, text) rename to start_conversation_unchecked;
alter function public.start_conversation_unchecked(uuid, text, text) set schema private;
revoke all on function private.start_conversation_unchecked(uuid, text, text) from public, anon, authenticated;

create function public.start_conversation(
  p_specialist_id uuid, p_card_id text default null, p_welcome_text text default null
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_message text;
begin
  return private.start_conversation_unchecked(p_specialist_id, p_card_id, p_welcome_text);
exception when no_data_found then
  get stacked diagnostics v_message = message_text;
  perform private.raise_not_found(v_message);
end $$;
revoke all on function public.start_conversation(uuid, text, text) from public, anon;
grant execute on function public.start_conversation(uuid, text, text) to authenticated, service_role;

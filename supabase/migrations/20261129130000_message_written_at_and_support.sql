-- Issue 37: two facts about a user message that the server decides, whoever sends it.
--
-- 1. The time a message was WRITTEN (user item 12). A device that sends later what it wrote offline
--    puts the time it was typed, on the server's clock as the device knows it (R9.11), in
--    payload.written_at (sync/SPEC.md R1.14). The server keeps it within sane bounds: never after
--    the message's own created_at (the receive time: nothing is written in the future), never before
--    the conversation was created. A value outside is clamped, not refused (the device's clock
--    estimate may be off by a round trip; refusing would lose what the user typed); a value that is
--    not an ISO 8601 time WITH a zone (or not a string) is refused with 400, since the server would
--    otherwise read it in its own zone. The stored form is UTC with microseconds. Order stays the
--    server's (created_at, id): written_at is shown, never sorted on.
--
-- 2. Who wrote it (admin item 1). A user message whose sender is a super admin who is not a member
--    of the message's account was written by support while impersonating: payload.sent_by_support is
--    set to true, so every device of the account (and the admin) shows it attributed to support.
--    The flag is the server's alone: a client's own value is dropped on every insert, so a member
--    cannot pose as support and support cannot hide. Decided from sender_user_id, which t10_guard
--    stamps with auth.uid() for API clients and server code (admin-chatwoot-send) sets to the caller.
--    The write itself is already audited (20261122000900, 'impersonated.insert' with the whole row,
--    flag included).
--
-- Runs after t10_guard (which locked the conversation and stamped created_at) and before
-- t20_attachments; triggers of one event fire in name order.

create function private.written_at_refused() returns void
language plpgsql volatile set search_path = ''
as $$
begin
  raise exception 'payload.written_at must be an ISO 8601 time with a zone, e.g. 2026-11-28T09:30:00.000Z'
    using errcode = '22023';
end $$;
revoke all on function private.written_at_refused() from public;
grant execute on function private.written_at_refused() to authenticated, service_role;

create function private.tg_messages_written_and_support() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_raw jsonb := NEW.payload -> 'written_at';
  v_at timestamptz;
  v_conv_created timestamptz;
  v_support boolean;
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
  elsif private.caller_is_client() and NEW.payload ? 'sent_by_support' then
    NEW.payload := NEW.payload - 'sent_by_support';
  end if;
  return NEW;
end $$;
revoke all on function private.tg_messages_written_and_support() from public;

create trigger t15_written_and_support before insert on public.messages
  for each row execute function private.tg_messages_written_and_support();

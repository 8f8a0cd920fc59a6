-- RPCs of the user area. Each acts for current_account_id() (the impersonated account for a super
-- admin), so an impersonating admin uses the same calls as a member.

-- send_message: idempotent send. A repeat with the same (conversation, correlation id) answers with
-- the stored row unchanged, however many times and however concurrently it is sent: concurrent
-- duplicates queue on the conversation's lock, the later ones find the first row (see the change
-- counter trigger) and ON CONFLICT DO NOTHING hands back to the re-read below.
-- SECURITY INVOKER: RLS and the message guard apply exactly as for a table insert.
create function public.send_message(
  p_conversation_id uuid,
  p_text text,
  p_client_correlation_id uuid,
  p_payload jsonb default null
) returns public.messages
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  v public.messages;
begin
  if p_client_correlation_id is null then
    raise exception 'client_correlation_id is required' using errcode = '22023';
  end if;
  if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
    raise exception 'payload must be a JSON object' using errcode = '22023';
  end if;

  select * into v from public.messages m
   where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  if v.id is not null then
    return v;
  end if;

  if coalesce(btrim(p_text, E' \t\r\n'), '') = '' then
    raise exception 'Message text is empty' using errcode = '22023';
  end if;

  insert into public.messages (conversation_id, text, type, direction, source, payload, client_correlation_id)
  values (p_conversation_id, p_text, 'text', 'user', 'app', p_payload, p_client_correlation_id)
  on conflict (conversation_id, client_correlation_id) do nothing
  returning * into v;

  if v.id is null then
    select * into v from public.messages m
     where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  end if;
  return v;
end $$;

-- mark_read: moves the caller's cursor in a conversation to p_message_id, never backwards (the
-- cursor guard keeps the newer position). Returns the cursor as stored.
create function public.mark_read(p_conversation_id uuid, p_message_id uuid) returns public.read_cursors
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  v public.read_cursors;
begin
  if auth.uid() is null then
    raise exception 'A signed-in user is required' using errcode = '42501';
  end if;
  insert into public.read_cursors (user_id, conversation_id, last_read_message_id)
  values (auth.uid(), p_conversation_id, p_message_id)
  on conflict (user_id, conversation_id) do update set last_read_message_id = excluded.last_read_message_id
  returning * into v;
  return v;
end $$;

-- Unread counts of the calling user for every conversation of the account acted for: specialist
-- messages after the read cursor's (created_at, id) position, all of them without a cursor.
-- One index range scan per conversation on messages_unread_idx.
create function public.get_unread_counts()
returns table (conversation_id uuid, unread_count int)
language sql stable security invoker set search_path = ''
as $$
  select c.id,
         (select count(*)::int
            from public.messages m
           where m.conversation_id = c.id
             and m.direction = 'specialist'
             and (rc.last_read_message_id is null
                  or (m.created_at, m.id) > (rc.last_read_at, rc.last_read_message_id)))
    from public.conversations c
    left join public.read_cursors rc on rc.conversation_id = c.id and rc.user_id = (select auth.uid())
   where c.account_id = (select public.current_account_id())
$$;

-- get_active_specialists(p_account_id): rows {specialist_id} the account may use (DEFAULT: its
-- plan's, CUSTOM: its explicit assignments). For the account the caller acts for, or any account
-- for a super admin.
create function public.get_active_specialists(p_account_id uuid)
returns table (specialist_id uuid)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not (public.is_account_member(p_account_id) or public.is_super_admin()
          or coalesce(auth.role(), '') = 'service_role') then
    raise exception 'Not allowed to read this account' using errcode = '42501';
  end if;
  return query
    select a.id from private.active_specialist_ids(p_account_id) a(id)
      join public.specialists s on s.id = a.id
     order by s.name;
end $$;

-- Opens (or finds) the account's active conversation with a specialist. Concurrent openers are
-- deduplicated by the unique index conversations_one_active_per_specialist: the loser re-reads.
-- An archived match is brought back to the active list, since the user just asked for it.
create function private.open_conversation(
  p_account_id uuid, p_specialist_id uuid, p_card_id text, p_welcome_text text
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_archived timestamptz;
begin
  for attempt in 1..2 loop
    select c.id, c.archived_at into v_id, v_archived from public.conversations c
     where c.account_id = p_account_id and c.specialist_id = p_specialist_id and c.status = 'active';
    if v_id is not null then
      if v_archived is not null then
        update public.conversations set archived_at = null where id = v_id;
      end if;
      return jsonb_build_object('conversation_id', v_id, 'created', false);
    end if;
    begin
      insert into public.conversations (account_id, specialist_id, card_id)
      values (p_account_id, p_specialist_id, p_card_id)
      returning id into v_id;
    exception when unique_violation then
      continue; -- another transaction opened it first: read it
    end;
    if nullif(btrim(coalesce(p_welcome_text, ''), E' \t\r\n'), '') is not null then
      insert into public.messages (conversation_id, text, type, direction, source, payload)
      values (v_id, p_welcome_text, 'text', 'specialist', 'system',
              jsonb_strip_nulls(jsonb_build_object('kind', 'welcome', 'card_id', p_card_id)));
    end if;
    return jsonb_build_object('conversation_id', v_id, 'created', true);
  end loop;
  raise exception 'Could not open the conversation' using errcode = '40001';
end $$;

-- start_conversation: {conversation_id, created}. Refuses (42501) specialists the account may not
-- use; the assistant specialist is always allowed (request-specialist flow).
create function public.start_conversation(
  p_specialist_id uuid, p_card_id text default null, p_welcome_text text default null
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_assistant boolean;
begin
  if auth.uid() is null then
    raise exception 'A signed-in user is required' using errcode = '42501';
  end if;
  if v_account is null then
    raise exception 'Account ID not found' using errcode = 'P0002';
  end if;
  select s.is_assistant into v_assistant from public.specialists s where s.id = p_specialist_id;
  if v_assistant is null then
    raise exception 'Specialist not found' using errcode = 'P0002';
  end if;
  if not v_assistant
     and not exists (select 1 from private.active_specialist_ids(v_account) a(id) where a.id = p_specialist_id) then
    raise exception 'This specialist is not available for your account' using errcode = '42501',
      hint = 'The account''s plan or its assigned specialists do not include this specialist.';
  end if;
  if char_length(coalesce(p_welcome_text, '')) > 4000 or char_length(coalesce(p_card_id, '')) > 200 then
    raise exception 'welcome_text or card_id is too long' using errcode = '22001';
  end if;
  return private.open_conversation(v_account, p_specialist_id, p_card_id, p_welcome_text);
end $$;

-- ensure_first_conversation: an account without conversations gets one with the assistant, greeted
-- by it. Otherwise answers with the newest conversation and created=false.
create function public.ensure_first_conversation() returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_id uuid;
begin
  if auth.uid() is null then
    raise exception 'A signed-in user is required' using errcode = '42501';
  end if;
  if v_account is null then
    raise exception 'Account ID not found' using errcode = 'P0002';
  end if;
  select c.id into v_id from public.conversations c
   where c.account_id = v_account order by c.last_message_at desc nulls last, c.created_at desc limit 1;
  if v_id is not null then
    return jsonb_build_object('conversation_id', v_id, 'created', false);
  end if;
  return private.open_conversation(
    v_account, '00000000-0000-4000-8000-000000000001', null,
    'Dobrý deň! Som asistent Poradne. Napíšte mi, s čím potrebujete pomôcť, alebo si v záložke '
    || '**Špecialisti** vyberte odborníka, s ktorým chcete začať.');
end $$;

-- Creates the account of a user who has none (the auto-created account of admin-area.md section 4:
-- local part of the e-mail + ' Account', plan FREE, owner link). Returns the account id.
create function private.create_account_for_user(p_user_id uuid, p_email text) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_account uuid;
  v_local text := nullif(split_part(coalesce(p_email, ''), '@', 1), '');
begin
  select au.account_id into v_account from public.account_users au where au.user_id = p_user_id;
  if v_account is not null then
    return v_account;
  end if;
  insert into public.accounts (name, owner_email, plan)
  values (coalesce(v_local, 'New') || ' Account', lower(p_email), 'FREE')
  returning id into v_account;
  insert into public.account_users (account_id, user_id, role) values (v_account, p_user_id, 'owner');
  return v_account;
end $$;

-- ensure_account: the caller's own account id, created if the caller has none (e.g. a user created
-- before the signup trigger existed). Never the impersonated account.
create function public.ensure_account() returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_email text;
begin
  if auth.uid() is null then
    raise exception 'A signed-in user is required' using errcode = '42501';
  end if;
  select u.email into v_email from auth.users u where u.id = auth.uid();
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  return private.create_account_for_user(auth.uid(), v_email);
end $$;

revoke all on function public.send_message(uuid, text, uuid, jsonb) from public, anon;
revoke all on function public.mark_read(uuid, uuid) from public, anon;
revoke all on function public.get_unread_counts() from public, anon;
revoke all on function public.get_active_specialists(uuid) from public, anon;
revoke all on function public.start_conversation(uuid, text, text) from public, anon;
revoke all on function public.ensure_first_conversation() from public, anon;
revoke all on function public.ensure_account() from public, anon;
grant execute on function public.send_message(uuid, text, uuid, jsonb) to authenticated, service_role;
grant execute on function public.mark_read(uuid, uuid) to authenticated, service_role;
grant execute on function public.get_unread_counts() to authenticated, service_role;
grant execute on function public.get_active_specialists(uuid) to authenticated, service_role;
grant execute on function public.start_conversation(uuid, text, text) to authenticated, service_role;
grant execute on function public.ensure_first_conversation() to authenticated, service_role;
grant execute on function public.ensure_account() to authenticated, service_role;
revoke all on function private.open_conversation(uuid, uuid, text, text) from public;
revoke all on function private.create_account_for_user(uuid, text) from public;

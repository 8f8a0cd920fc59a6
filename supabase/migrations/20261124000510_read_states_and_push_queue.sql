-- Read by the specialist (messages.read_at on the user's own messages) and the push notification
-- queue (issue 20; rules R10.x in sync/SPEC.md). Every read_at change is an UPDATE of the message
-- row, so the change-feed trigger (t50_change_seq) numbers it and clients receive it by sync_pull
-- and realtime like any other row.

-- ---------------------------------------------------------------- read_at moves forward only (R10.8)
-- Whoever writes (server code; clients cannot update messages at all): read_at is set once, on a
-- user message, and never cleared or moved. Named t20 so it runs after the update guard (t10) and
-- before the change counter (t50): a write that only tried to move read_at back takes no number.
create function private.tg_messages_read_at_forward() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if OLD.read_at is not null or NEW.direction <> 'user' then
    NEW.read_at := OLD.read_at;
  end if;
  return NEW;
end $$;
create trigger t20_read_at_forward before update on public.messages
  for each row execute function private.tg_messages_read_at_forward();

-- Marks the user messages of a conversation up to (created_at, id) read at p_at. The conversation
-- is locked first, the order every message writer keeps (private.lock_conversation).
create function private.mark_user_messages_read(p_conversation_id uuid, p_upto_at timestamptz, p_upto_id uuid, p_at timestamptz)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.lock_conversation(p_conversation_id);
  update public.messages m
     set read_at = p_at
   where m.conversation_id = p_conversation_id
     and m.direction = 'user'
     and m.read_at is null
     and (m.created_at, m.id) <= (p_upto_at, p_upto_id);
end $$;
revoke all on function private.mark_user_messages_read(uuid, timestamptz, uuid, timestamptz) from public;

-- R10.9: a human specialist's reply means the user messages before it were seen. Not an AI reply
-- (source 'ai'): an AI has read exactly what its jobs took (R10.10), not what arrived meanwhile.
create function private.tg_messages_read_on_reply() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_prev public.messages;
begin
  select * into v_prev from public.messages m
   where m.conversation_id = NEW.conversation_id and m.direction = 'user' and m.read_at is null
     and (m.created_at, m.id) < (NEW.created_at, NEW.id)
   order by m.created_at desc, m.id desc limit 1;
  if v_prev.id is not null then
    perform private.mark_user_messages_read(NEW.conversation_id, v_prev.created_at, v_prev.id, NEW.created_at);
  end if;
  return null;
end $$;
revoke all on function private.tg_messages_read_on_reply() from public;
create trigger t65_read_on_reply after insert on public.messages
  for each row when (NEW.direction = 'specialist' and NEW.source is distinct from 'ai')
  execute function private.tg_messages_read_on_reply();

-- R10.10: an AI specialist has "read" a message when its reply job takes it (pending → running),
-- together with every earlier unread user message of that conversation.
create function private.tg_ai_job_taken_read() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_msg public.messages;
begin
  select * into v_msg from public.messages where id = NEW.message_id;
  if v_msg.id is not null and v_msg.read_at is null then
    perform private.mark_user_messages_read(NEW.conversation_id, v_msg.created_at, v_msg.id, now());
  end if;
  return null;
end $$;
revoke all on function private.tg_ai_job_taken_read() from public;
create trigger t60_taken_read after update of status on public.ai_reply_jobs
  for each row when (NEW.status = 'running' and OLD.status is distinct from 'running')
  execute function private.tg_ai_job_taken_read();

-- R10.11: Chatwoot's agent has seen the conversation up to p_seen_at (its agent_last_seen_at):
-- the user messages created before then are read. Called by the chatwoot-webhook function.
create function public.mark_read_by_agent(p_conversation_id uuid, p_seen_at timestamptz) returns int
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_prev public.messages;
  v_n int;
begin
  if p_seen_at is null or p_seen_at > now() + interval '5 minutes' then
    raise exception 'seen_at must be a time not in the future' using errcode = '22023';
  end if;
  select * into v_prev from public.messages m
   where m.conversation_id = p_conversation_id and m.direction = 'user' and m.read_at is null
     and m.created_at <= p_seen_at
   order by m.created_at desc, m.id desc limit 1;
  if v_prev.id is null then
    return 0;
  end if;
  select count(*) into v_n from public.messages m
   where m.conversation_id = p_conversation_id and m.direction = 'user' and m.read_at is null
     and (m.created_at, m.id) <= (v_prev.created_at, v_prev.id);
  perform private.mark_user_messages_read(p_conversation_id, v_prev.created_at, v_prev.id, least(p_seen_at, now()));
  return v_n;
end $$;
revoke all on function public.mark_read_by_agent(uuid, timestamptz) from public, anon, authenticated;
grant execute on function public.mark_read_by_agent(uuid, timestamptz) to service_role;

-- ---------------------------------------------------------------- the queue is filled (R10.1, R10.4, R10.6)
-- A specialist, AI or system message queues one notification per member of the account who has a
-- subscribed device, due after the delay D. Not for:
--   * the member whose own request wrote it (auth.uid() of the statement: the welcome of a chat
--     they opened, a notice caused by a send their device replayed after being offline) — R10.4;
--   * messages stamped more than an hour ago (imports and backfills, R10.6).
create function private.tg_push_enqueue() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_delay numeric;
  v_actor uuid := auth.uid();
  v_n int;
begin
  if NEW.created_at < now() - interval '1 hour' then
    return null;
  end if;
  select s.delay_seconds into v_delay from private.push_settings s;
  insert into public.push_notifications (message_id, user_id, conversation_id, due_at)
  select NEW.id, au.user_id, NEW.conversation_id, now() + make_interval(secs => coalesce(v_delay, 10))
    from public.account_users au
   where au.account_id = NEW.account_id
     and au.user_id is distinct from v_actor
     and exists (select 1 from public.push_subscriptions s where s.user_id = au.user_id)
  on conflict (message_id, user_id) do nothing;
  get diagnostics v_n = row_count;
  if v_n > 0 then
    perform pg_notify('push_notifications', NEW.id::text);
  end if;
  return null;
end $$;
revoke all on function private.tg_push_enqueue() from public;
create trigger t70_push_enqueue after insert on public.messages
  for each row when (NEW.direction in ('specialist', 'ai', 'system'))
  execute function private.tg_push_enqueue();

-- ---------------------------------------------------------------- the worker's side (service role)
-- Claims up to p_limit due notifications. Each is first checked against "seen in time" (R10.2,
-- R10.3): the user's read cursor passed the message, or a device reported the chat visible within
-- viewing_fresh_seconds → status 'seen', nothing sent. Otherwise it is leased for 2 minutes and
-- returned with what to send and to which devices: every subscription of the user that has not yet
-- got it (push_deliveries, R10.5).
-- Answer: [{id, attempts, message_id, conversation_id, direction, text, type, title, icon, unread,
--           subscriptions: [{id, endpoint, p256dh, auth}]}]
create function public.claim_push_notifications(p_worker text, p_limit int default 20) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_fresh numeric;
  v_out jsonb := '[]'::jsonb;
  r public.push_notifications;
  v_msg public.messages;
  v_subs jsonb;
  v_unread int;
  v_spec public.specialists;
begin
  select s.viewing_fresh_seconds into v_fresh from private.push_settings s;
  for r in
    select n.* from public.push_notifications n
     where n.status in ('pending', 'running') and n.due_at <= now() and n.attempts < 5
     order by n.due_at
     limit least(greatest(coalesce(p_limit, 20), 1), 100)
     for update skip locked
  loop
    select * into v_msg from public.messages where id = r.message_id;
    if exists (select 1 from public.read_cursors rc
                where rc.user_id = r.user_id and rc.conversation_id = r.conversation_id
                  and rc.last_read_message_id is not null
                  and (rc.last_read_at, rc.last_read_message_id) >= (v_msg.created_at, v_msg.id))
       or exists (select 1 from public.push_viewing v
                   where v.user_id = r.user_id and v.conversation_id = r.conversation_id
                     and v.updated_at > now() - make_interval(secs => coalesce(v_fresh, 30))) then
      update public.push_notifications set status = 'seen', locked_by = null, updated_at = now() where id = r.id;
      continue;
    end if;

    insert into public.push_deliveries (notification_id, subscription_id)
    select r.id, s.id from public.push_subscriptions s where s.user_id = r.user_id
    on conflict do nothing;
    select coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth)
                              order by s.created_at), '[]'::jsonb)
      into v_subs
      from public.push_deliveries d join public.push_subscriptions s on s.id = d.subscription_id
     where d.notification_id = r.id and d.status = 'sending';
    if jsonb_array_length(v_subs) = 0 then
      update public.push_notifications set status = 'sent', locked_by = null, updated_at = now() where id = r.id;
      continue;
    end if;

    update public.push_notifications
       set status = 'running', attempts = attempts + 1, locked_by = left(p_worker, 100),
           due_at = now() + interval '2 minutes', updated_at = now()
     where id = r.id;

    select s.* into v_spec from public.conversations c join public.specialists s on s.id = c.specialist_id
     where c.id = r.conversation_id;
    -- The user's total unread, as get_unread_counts counts it, over their own account.
    select coalesce(sum((select count(*)
                           from public.messages m
                          where m.conversation_id = c.id and m.direction = 'specialist'
                            and (rc.last_read_message_id is null
                                 or (m.created_at, m.id) > (rc.last_read_at, rc.last_read_message_id)))), 0)::int
      into v_unread
      from public.conversations c
      join public.account_users au on au.account_id = c.account_id and au.user_id = r.user_id
      left join public.read_cursors rc on rc.conversation_id = c.id and rc.user_id = r.user_id;

    v_out := v_out || jsonb_build_array(jsonb_build_object(
      'id', r.id, 'attempts', r.attempts + 1, 'message_id', v_msg.id, 'conversation_id', r.conversation_id,
      'direction', v_msg.direction, 'type', v_msg.type, 'text', v_msg.text,
      'title', coalesce(v_spec.name, 'Poradňa'), 'icon', v_spec.avatar_url, 'unread', v_unread,
      'subscriptions', v_subs));
  end loop;
  return v_out;
end $$;

-- What the sends answered: p_results = [{subscription_id, status}] with the push service's HTTP
-- status (0: no answer). 2xx: delivered. 404/410: the subscription is gone and is deleted (R10.7).
-- Other 4xx: a permanent refusal of this device. 429/5xx/0: that device is tried again (backoff
-- 10 s × attempts, at most 5 attempts). The notification ends 'sent' when no device is left to try.
create function public.finish_push_notification(p_id uuid, p_results jsonb) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_item jsonb;
  v_sub uuid;
  v_status int;
  v_left int;
  v_attempts int;
begin
  select attempts into v_attempts from public.push_notifications where id = p_id for update;
  if v_attempts is null then
    raise exception 'Notification not found' using errcode = 'P0002';
  end if;
  for v_item in select * from jsonb_array_elements(coalesce(p_results, '[]'::jsonb)) loop
    v_sub := nullif(v_item ->> 'subscription_id', '')::uuid;
    v_status := coalesce((v_item ->> 'status')::int, 0);
    if v_status in (404, 410) then
      delete from public.push_subscriptions where id = v_sub;
    elsif v_status between 200 and 299 then
      update public.push_deliveries set status = 'sent', http_status = v_status, updated_at = now()
       where notification_id = p_id and subscription_id = v_sub;
    elsif v_status between 400 and 499 and v_status <> 429 then
      update public.push_deliveries set status = 'failed', http_status = v_status, updated_at = now()
       where notification_id = p_id and subscription_id = v_sub;
    else
      update public.push_deliveries set http_status = v_status, updated_at = now()
       where notification_id = p_id and subscription_id = v_sub;
    end if;
  end loop;
  select count(*) into v_left from public.push_deliveries where notification_id = p_id and status = 'sending';
  if v_left > 0 and v_attempts < 5 then
    update public.push_notifications
       set status = 'pending', locked_by = null, due_at = now() + make_interval(secs => 10 * v_attempts),
           last_error = left(p_results::text, 2000), updated_at = now()
     where id = p_id;
  else
    update public.push_notifications
       set status = case when v_left > 0 then 'failed' else 'sent' end, locked_by = null, updated_at = now()
     where id = p_id;
  end if;
end $$;

revoke all on function public.claim_push_notifications(text, int) from public, anon, authenticated;
revoke all on function public.finish_push_notification(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.claim_push_notifications(text, int) to service_role;
grant execute on function public.finish_push_notification(uuid, jsonb) to service_role;

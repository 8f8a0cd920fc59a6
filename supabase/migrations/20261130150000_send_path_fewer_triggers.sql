-- A send's trigger calls and WHEN clauses cut, same rules (issue 41 part 3: send_message at >= 0.8x
-- its floor, row 10a⁗; the round before: 20261130140000).
--
-- Where a send's instructions go now (bench/RESULTS.md, 2026-11-29 session 29; callgrind, one backend
-- in single-user mode, each send its own transaction, (70 sends - 20 sends) / 50): 3.64 M a send, its
-- floor 1.08 M. No statement is slow; 9 % of a send is stringToNode, PostgreSQL rebuilding from the
-- catalog's node text, in every statement, each trigger WHEN clause that matches the event (about
-- 35 k instructions each: TriggerEnabled was 0.20 M a send) and each CHECK constraint (0.29 M, kept:
-- they are the rules). A trigger call that finds nothing to do costs about as much (a SECURITY
-- DEFINER one more: the GUC nest level and search_path switch). So this folds the checks that only
-- look at the inserted message into the trigger that every message insert runs anyway, in the order
-- they fired, and keeps every rule:
--   - messages' AFTER INSERT triggers t65_read_on_reply, t70_audit_impersonation (its INSERT part),
--     t70_push_enqueue and t90_reject_unsequenced fold into t60_after_insert, which ran first of them
--     for every message: three WHEN clauses and one SECURITY DEFINER call a message less. The same
--     conditions are IFs in the same function now (all five were SECURITY DEFINER with
--     search_path = '', except t90, which only raises). An error from any part rolls back the whole
--     statement as before, so t90's check runs first (nothing is done for a row that must fail).
--     Audit of message UPDATE and DELETE keeps its trigger.
--   - messages' t95_broadcast_insert loses its WHEN (NEW.change_seq > 0): every message row that
--     survives its statement has a number (the check above raises otherwise), so it was always true.
--   - conversations' t95_broadcast_update does not queue for the update that moves last_message_at:
--     only tg_messages_after_insert moves it (clients cannot, t10_guard), for a message this
--     transaction inserted with a number, whose own t95_broadcast_insert announces the account's last
--     number at commit (R18.1, once per transaction and topic) — this event only found that done.
--   - t20_ai_silenced's INSERT part folds into t15_written_and_support, which ran just before it for
--     every message (both SECURITY DEFINER, search_path = ''): one call a message less; the UPDATE
--     part keeps its trigger (before update only now).
-- Not done (measured, not worth it or not safe): current_account_id as one statement with two scalar
-- subqueries (+15 k instructions a send against two statements); the accounts guard's WHEN on every
-- counter bump (the guard is what keeps clients off change_seq, which they may otherwise update).

-- ---------------------------------------------------------------------------------------------------
-- AFTER INSERT on messages: one trigger. Parts in the order their triggers fired (t60, t65, t70_audit,
-- t70_push), t90's check first (see above).
create or replace function private.tg_messages_after_insert() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
  v_job uuid;
  v_given text := current_setting('poradna.conversation_seq', true);
  v_prev public.messages;
  v_uid uuid;
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
      perform set_config('poradna.conversation_seq', split_part(v_given, '/', 1) || '/' || split_part(v_given, '/', 2), true);
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
    perform set_config('poradna.conversation_seq', '', true);
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
    v_uid := auth.uid();
    if v_uid is not null then
      select i.account_id into v_impersonated
        from public.impersonations i
        join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
       where i.admin_user_id = v_uid;
      if v_impersonated is not null then
        v_row := to_jsonb(NEW);
        insert into public.audit_log (actor_user_id, account_id, action, table_name, row_id, details)
        values (v_uid, NEW.account_id, 'impersonated.insert', TG_TABLE_NAME, NEW.id::text,
                jsonb_build_object('new', v_row) || jsonb_build_object('impersonated_account_id', v_impersonated));
      end if;
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
end $$;
revoke all on function private.tg_messages_after_insert() from public;

drop trigger t65_read_on_reply on public.messages;
drop trigger t70_push_enqueue on public.messages;
drop trigger t90_reject_unsequenced on public.messages;
drop trigger t70_audit_impersonation on public.messages;
create trigger t70_audit_impersonation after update or delete on public.messages
  for each row execute function private.tg_audit_impersonated_write();
drop function private.tg_messages_read_on_reply();
drop function private.tg_push_enqueue();

-- ---------------------------------------------------------------------------------------------------
-- R18.1's broadcasts (20261130130000): the message's without its always-true WHEN; the conversation's
-- not queued for the update a new message makes (its message's broadcast announces it, see above).
drop trigger t95_broadcast_insert on public.messages;
create constraint trigger t95_broadcast_insert after insert on public.messages
  deferrable initially deferred for each row execute function private.tg_broadcast_feed_change();
drop trigger t95_broadcast_update on public.conversations;
create constraint trigger t95_broadcast_update after update on public.conversations
  deferrable initially deferred for each row
  when (NEW.change_seq <> OLD.change_seq and NEW.last_message_at is not distinct from OLD.last_message_at)
  execute function private.tg_broadcast_feed_change();

-- ---------------------------------------------------------------------------------------------------
-- BEFORE INSERT on messages: t20_ai_silenced's INSERT part (20261128120000, R14.3) runs at the end of
-- t15_written_and_support (20261129130000), which fired just before it for every message, in the same
-- context (SECURITY DEFINER, search_path = ''); t20_attachments still fires after both. Unchanged
-- otherwise.
create or replace function private.tg_messages_written_and_support() returns trigger
language plpgsql security definer set search_path = ''
as $$
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
  elsif private.caller_is_client() and NEW.payload ? 'sent_by_support' then
    NEW.payload := NEW.payload - 'sent_by_support';
  end if;

  -- t20_ai_silenced, INSERT: the AI writes only into a conversation the AI owns (R14.3).
  if private.is_ai_message(NEW) then
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
end $$;
revoke all on function private.tg_messages_written_and_support() from public;

drop trigger t20_ai_silenced on public.messages;
create trigger t20_ai_silenced before update on public.messages
  for each row execute function private.tg_messages_ai_silenced();

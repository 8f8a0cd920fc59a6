-- Issue 41 part 3, cut 6 of six (20261130170000 says how a send's instructions were measured and
-- where they went); same rules.

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

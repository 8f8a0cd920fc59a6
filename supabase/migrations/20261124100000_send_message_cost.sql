-- What a send costs on the server (issue 19, row 10a). Profiled with auto_explain (nested statements,
-- triggers) and track_functions on a throwaway stack: one send_message wrote the message, moved its
-- conversation's last_message_at and bumped the account's counter TWICE — the message's number, then
-- the conversation's in the nested UPDATE's own t50_change_seq. The second bump of the same account
-- row in one transaction is the dearest part of it: an UPDATE of a row this transaction already
-- updated always re-runs the plan_id foreign-key check (RI_FKey_fk_upd_check_required fires when the
-- old row's xmin is the current transaction), and fired the accounts guard a second time. The same
-- behaviour, every number and every check kept, now costs:
--   1. ONE counter bump per new message: when the message will move its conversation's
--      last_message_at (decided under the conversation's lock with the condition the AFTER trigger
--      uses), its t50 takes two numbers at once, n for the message and n + 1 for the conversation,
--      and the AFTER trigger hands n + 1 to the conversation's UPDATE. The numbers, their order and
--      the realtime events' order are what they were (message n, then conversation n + 1).
--   2. No separate account lock before the duplicate check of a message insert: the conversation
--      lock that tg_messages_guard_insert (t10) takes for every message insert already serialises the
--      inserts that could collide on (conversation_id, client_correlation_id), so the check needs no
--      account lock, and the account row is locked first by the counter UPDATE itself, as late as a
--      BEFORE trigger can. A repeated upsert no longer waits for another conversation's open
--      transaction of the same account (tests/db/send-lock-scope.test.ts). The gap-free rule is
--      unchanged: every number is still taken by an UPDATE of the account row that holds its lock to
--      commit (20261122000300_change_feed.sql).
--   3. The accounts guard is not called for the counter's own UPDATEs (a WHEN clause says when it has
--      anything to do), and the audit trigger asks for the trigger depth before parsing the claims.

-- ---------------------------------------------------------------- 1 + 2: the counter
create or replace function private.tg_assign_change_seq() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
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
        perform set_config('poradna.conversation_seq', '', true);
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
        perform set_config('poradna.repeat_of',
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
      perform set_config('poradna.conversation_seq',
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
end $$;
revoke all on function private.tg_assign_change_seq() from public;

-- The conversation's side of point 1. Unchanged otherwise (20261122000400_row_guards.sql).
create or replace function private.tg_messages_after_insert() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_conv public.conversations;
  v_job uuid;
  v_given text := current_setting('poradna.conversation_seq', true);
begin
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
  return null;
end $$;
revoke all on function private.tg_messages_after_insert() from public;

-- ---------------------------------------------------------------- 3: guards that had nothing to do
-- tg_accounts_guard (20261122000400) changes or refuses something only when the caller is an API
-- client, or plan / plan_id / name / owner_email / specialists_mode changed; every counter bump (server
-- code, only change_seq and last_activity_at) returned NEW untouched after a plpgsql call. The WHEN
-- clause is that same condition, so the function runs exactly when it can act. The column list is the
-- one the old trigger had (a client's UPDATE of change_seq, created_at, id or last_activity_at still
-- reaches the guard and is refused).
drop trigger t10_guard on public.accounts;
create trigger t10_guard before insert on public.accounts
  for each row execute function private.tg_accounts_guard();
create trigger t10_guard_update before update of name, owner_email, plan, plan_id, specialists_mode, change_seq, created_at, id, last_activity_at
  on public.accounts for each row
  when (current_user in ('authenticated', 'anon')
        or (NEW.name, NEW.owner_email, NEW.plan, NEW.plan_id, NEW.specialists_mode)
           is distinct from (OLD.name, OLD.owner_email, OLD.plan, OLD.plan_id, OLD.specialists_mode))
  execute function private.tg_accounts_guard();

-- Same as 20261122000900, with the depth test (free) before auth.uid() (a parse of the claims):
-- every send's conversation update is a follow-up write at depth 2.
create or replace function private.tg_audit_impersonated_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid;
  v_impersonated uuid;
  v_row jsonb;
  v_details jsonb;
begin
  if pg_trigger_depth() > 1 then
    return null;
  end if;
  v_uid := auth.uid();
  if v_uid is null then
    return null;
  end if;
  select i.account_id into v_impersonated
    from public.impersonations i
    join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
   where i.admin_user_id = v_uid;
  if v_impersonated is null then
    return null;
  end if;

  v_row := case when TG_OP = 'DELETE' then to_jsonb(OLD) else to_jsonb(NEW) end;
  v_details := case TG_OP
    when 'INSERT' then jsonb_build_object('new', v_row)
    when 'DELETE' then jsonb_build_object('old', v_row)
    else jsonb_build_object(
      'changed', (select coalesce(jsonb_object_agg(n.key, n.value), '{}'::jsonb)
                    from jsonb_each(v_row) n
                   where n.value is distinct from to_jsonb(OLD) -> n.key))
  end || jsonb_build_object('impersonated_account_id', v_impersonated);

  insert into public.audit_log (actor_user_id, account_id, action, table_name, row_id, details)
  values (
    v_uid,
    case TG_TABLE_NAME
      when 'accounts' then (v_row ->> 'id')::uuid
      when 'chatwoot_config' then null -- its account_id is Chatwoot's numeric account
      else (v_row ->> 'account_id')::uuid
    end,
    'impersonated.' || lower(TG_OP),
    TG_TABLE_NAME,
    coalesce(v_row ->> 'id', v_row ->> 'conversation_id', v_row ->> 'specialist_id'),
    v_details);
  return null;
end $$;
revoke all on function private.tg_audit_impersonated_write() from public;

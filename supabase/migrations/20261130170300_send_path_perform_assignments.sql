-- Issue 41 part 3, cut 4 of six (20261130170000 says how a send's instructions were measured and
-- where they went); same rules.

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

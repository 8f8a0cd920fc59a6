-- The account change feed (ARCHITECTURE.md "Gap-free change feed").
--
-- Every insert or real update of a conversation, message or read cursor takes the next number of its
-- account's counter inside the writing transaction:
--     update accounts set change_seq = change_seq + 1 where id = NEW.account_id returning change_seq
-- INVARIANT: that UPDATE holds the account row's lock until commit or rollback, so a second writer of
-- the same account waits and takes its number only after the first has finished. Numbers therefore
-- become visible in the order they were handed out: whenever number n is visible to a reader, every
-- number below n is visible too (or was rolled back together with its counter bump and is reused).
-- A puller that asks for "change_seq > cursor" can never miss a row committed later.
--
-- Numbers are unique per account across all three tables and the tombstones (one counter), so a
-- page boundary never splits a number. A no-op update (nothing changed) takes no number. An insert
-- that is about to resolve as a duplicate (ON CONFLICT on the correlation id or the cursor key) is
-- recognised under the lock and takes no number either, so repeated sends leave no hole. Readers see
-- holes only for rows they may not read (another user's read cursor) and for superseded versions.

create function private.tg_assign_change_seq() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_seq bigint;
begin
  if TG_OP = 'UPDATE' then
    NEW.change_seq := OLD.change_seq;
    if NEW is not distinct from OLD then
      return NEW; -- nothing changed: no number, no hole
    end if;
  elsif TG_TABLE_NAME = 'messages' then
    -- (nested IFs: a record field of another table's NEW must not even be evaluated)
    if NEW.client_correlation_id is not null then
      perform 1 from public.accounts where id = NEW.account_id for no key update;
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
       set change_seq = change_seq + 1,
           last_activity_at = greatest(last_activity_at, NEW.created_at)
     where id = NEW.account_id
    returning change_seq into v_seq;
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

-- A row that was sequenced as a duplicate (change_seq 0) must never be stored: it would be invisible
-- to every puller. AFTER INSERT fires only for rows really inserted, so this is the backstop.
create function private.tg_reject_unsequenced() returns trigger
language plpgsql set search_path = ''
as $$
begin
  raise exception 'Row of %.% was stored without a change number', TG_TABLE_SCHEMA, TG_TABLE_NAME
    using errcode = '23514';
end $$;

-- Deleted conversations and messages leave a numbered tombstone. Messages deleted because their
-- conversation is being deleted leave none: the conversation's tombstone covers them. Rows deleted
-- together with their account leave none: nobody can pull that account any more.
create function private.tg_record_deletion() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_seq bigint;
begin
  if TG_TABLE_NAME = 'messages' then
    if not exists (select 1 from public.conversations c where c.id = OLD.conversation_id) then
      return null;
    end if;
  end if;
  update public.accounts set change_seq = change_seq + 1 where id = OLD.account_id
  returning change_seq into v_seq;
  if v_seq is not null then
    insert into public.deleted_rows (account_id, table_name, row_id, change_seq)
    values (OLD.account_id, TG_TABLE_NAME, OLD.id, v_seq);
  end if;
  return null;
end $$;

-- Trigger names are ordered on purpose (PostgreSQL fires same-event triggers by name): guards (t10..)
-- first, then the counter (t50), so the number is taken for the row as it will be stored.
create trigger t50_change_seq before insert or update on public.conversations
  for each row execute function private.tg_assign_change_seq();
create trigger t50_change_seq before insert or update on public.messages
  for each row execute function private.tg_assign_change_seq();
create trigger t50_change_seq before insert or update on public.read_cursors
  for each row execute function private.tg_assign_change_seq();

create trigger t90_reject_unsequenced after insert on public.conversations
  for each row when (NEW.change_seq <= 0) execute function private.tg_reject_unsequenced();
create trigger t90_reject_unsequenced after insert on public.messages
  for each row when (NEW.change_seq <= 0) execute function private.tg_reject_unsequenced();
create trigger t90_reject_unsequenced after insert on public.read_cursors
  for each row when (NEW.change_seq <= 0) execute function private.tg_reject_unsequenced();

create trigger t80_record_deletion after delete on public.conversations
  for each row execute function private.tg_record_deletion();
create trigger t80_record_deletion after delete on public.messages
  for each row execute function private.tg_record_deletion();

-- sync_pull(p_since, p_limit): everything of the caller's account (current_account_id(): the
-- impersonated account for a super admin) numbered above p_since, in number order, at most p_limit
-- rows across conversations, messages, the caller's own read cursors and tombstones:
--   {"conversations": [row + "specialist": {...}], "messages": [...], "read_cursors": [...],
--    "deleted": [{"table", "id"}], "cursor": <largest number included, or p_since>,
--    "has_more": <more rows above cursor>, "account_change_seq": <accounts.change_seq>}
-- The page is the first p_limit numbers of the union; numbers are unique per account, so the next
-- pull from "cursor" continues exactly where this one stopped.
-- SECURITY INVOKER: RLS applies on top of the explicit account filter. If account_change_seq is
-- below p_since the client's cursor belongs to another database or account and should restart at 0.
create function public.sync_pull(p_since bigint, p_limit int default 500) returns jsonb
language plpgsql stable security invoker set search_path = ''
as $$
declare
  -- STABLE: every statement here reads the snapshot of the calling query, so the page, the cursor
  -- and account_change_seq describe one moment. The values are variables (not a joined CTE) so that
  -- "change_seq > v_since" is an index condition on (account_id, change_seq).
  v_account uuid := public.current_account_id();
  v_user uuid := auth.uid();
  v_since bigint := greatest(coalesce(p_since, 0), 0);
  v_n int := least(greatest(coalesce(p_limit, 500), 1), 1000);
  v_result jsonb;
begin
  with
  candidates as (
    (select 'c'::text as kind, c.change_seq from public.conversations c
      where c.account_id = v_account and c.change_seq > v_since
      order by c.change_seq limit v_n + 1)
    union all
    (select 'm', m.change_seq from public.messages m
      where m.account_id = v_account and m.change_seq > v_since
      order by m.change_seq limit v_n + 1)
    union all
    (select 'r', r.change_seq from public.read_cursors r
      where r.account_id = v_account and r.change_seq > v_since and r.user_id = v_user
      order by r.change_seq limit v_n + 1)
    union all
    (select 'd', d.change_seq from public.deleted_rows d
      where d.account_id = v_account and d.change_seq > v_since
      order by d.change_seq limit v_n + 1)
  ),
  ranked as (
    select kind, change_seq, row_number() over (order by change_seq) as rn from candidates
  ),
  page as (
    select kind, change_seq from ranked where rn <= v_n
  )
  select jsonb_build_object(
    'conversations', coalesce((
      select jsonb_agg(
               to_jsonb(c) || jsonb_build_object('specialist', (
                 select jsonb_build_object(
                          'id', s.id, 'name', s.name, 'role', s.role, 'avatar_url', s.avatar_url,
                          'seniority', s.seniority, 'is_ai', s.is_ai, 'bio', s.bio, 'skills', s.skills,
                          'chatwoot_inbox_id', s.chatwoot_inbox_id, 'is_assistant', s.is_assistant)
                   from public.specialists s where s.id = c.specialist_id))
               order by c.change_seq)
        from page pg
        join public.conversations c on c.account_id = v_account and c.change_seq = pg.change_seq
       where pg.kind = 'c'), '[]'::jsonb),
    'messages', coalesce((
      select jsonb_agg(to_jsonb(m) order by m.change_seq)
        from page pg
        join public.messages m on m.account_id = v_account and m.change_seq = pg.change_seq
       where pg.kind = 'm'), '[]'::jsonb),
    'read_cursors', coalesce((
      select jsonb_agg(to_jsonb(r) order by r.change_seq)
        from page pg
        join public.read_cursors r on r.account_id = v_account and r.change_seq = pg.change_seq
       where pg.kind = 'r' and r.user_id = v_user), '[]'::jsonb),
    'deleted', coalesce((
      select jsonb_agg(jsonb_build_object('table', d.table_name, 'id', d.row_id, 'change_seq', d.change_seq)
                       order by d.change_seq)
        from page pg
        join public.deleted_rows d on d.account_id = v_account and d.change_seq = pg.change_seq
       where pg.kind = 'd'), '[]'::jsonb),
    'cursor', coalesce((select max(change_seq) from page), v_since),
    'has_more', (select count(*) from ranked) > v_n,
    'account_change_seq', coalesce((select a.change_seq from public.accounts a where a.id = v_account), 0)
  )
  into v_result;
  return v_result;
end $$;

revoke all on function public.sync_pull(bigint, int) from public, anon;
grant execute on function public.sync_pull(bigint, int) to authenticated, service_role;
revoke all on function private.tg_assign_change_seq() from public;
revoke all on function private.tg_reject_unsequenced() from public;
revoke all on function private.tg_record_deletion() from public;

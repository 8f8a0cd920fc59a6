-- sync_pull tells the client which database, account and moment answered (issue 18, rows 5, 7, 9;
-- sync/SPEC.md R9.7, R9.9, R9.11). Three fields are added to every page; nothing else changes:
--   "account_id":  the account the page is for (current_account_id(): the impersonated one for a
--                  super admin). A client acting for another account (impersonation switched on
--                  another device) must not take this page's cursor, even when the page is empty.
--   "feed_epoch":  the identity of the database the change numbers belong to (private.feed_epoch()).
--                  When it differs from the one the client's cursor came from, the numbers are not
--                  comparable any more (a backup was restored): the client re-pulls from 0.
--   "server_time": the server's clock when the page was built, so a client whose clock is wrong
--                  learns the offset (relative times, the order of messages typed here).

-- The identity of the change feed's numbering. It changes with every kind of restore we know of:
--   * PITR / a restored base backup promoted into a new timeline: pg_control_checkpoint().timeline_id;
--   * a cluster re-created (initdb, pg_upgrade into a new cluster): pg_control_system().system_identifier;
--   * a logical restore into a new database: the database oid;
--   * a logical restore into the same database (pg_restore --clean, or a schema dropped and
--     reloaded): the oid of public.accounts, which is created anew;
--   * a data-only restore (truncate, then copy back, as pg_restore --data-only after a cleanup): the
--     relfilenode of public.accounts, which TRUNCATE replaces. The counters live in accounts, so a
--     restore that can move them back has to rewrite that table.
-- It does not change when a restore rewrites accounts row by row (UPDATE/DELETE+INSERT, keeping the
-- file): then only a head behind the client's cursor tells (R5.7). It also changes, harmlessly, after
-- a failover promotion (new timeline) or VACUUM FULL / CLUSTER of accounts: clients re-pull once.
-- pg_control_*() are readable only by superusers and pg_monitor members; where the owner may not
-- read them (locally the migration owner is no superuser; on Supabase `postgres` is not either) those
-- parts are left out and the others still apply.
create function private.feed_epoch() returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_system text;
  v_timeline text;
begin
  begin
    select s.system_identifier::text into v_system from pg_catalog.pg_control_system() s;
  exception when insufficient_privilege then
    v_system := null;
  end;
  begin
    select c.timeline_id::text into v_timeline from pg_catalog.pg_control_checkpoint() c;
  exception when insufficient_privilege then
    v_timeline := null;
  end;
  return pg_catalog.md5(pg_catalog.concat_ws('/',
    coalesce(v_system, '-'),
    coalesce(v_timeline, '-'),
    (select d.oid::text from pg_catalog.pg_database d where d.datname = pg_catalog.current_database()),
    'public.accounts'::pg_catalog.regclass::oid::text,
    pg_catalog.pg_relation_filenode('public.accounts'::pg_catalog.regclass)::text));
end $$;

-- sync_pull runs as its caller (SECURITY INVOKER), so the caller needs this; it reveals only a hash.
revoke all on function private.feed_epoch() from public, anon;
grant execute on function private.feed_epoch() to authenticated, service_role;

create or replace function public.sync_pull(p_since bigint, p_limit int default 500) returns jsonb
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
    'account_change_seq', coalesce((select a.change_seq from public.accounts a where a.id = v_account), 0),
    'account_id', v_account,
    'feed_epoch', private.feed_epoch(),
    'server_time', clock_timestamp()
  )
  into v_result;
  return v_result;
end $$;

-- Same signature as before: the grants of 20261123000100 still apply; restated so this file stands alone.
revoke all on function public.sync_pull(bigint, int) from public, anon;
grant execute on function public.sync_pull(bigint, int) to authenticated, service_role;

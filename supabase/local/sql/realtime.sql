-- Local stand-in for Supabase Realtime's WAL reader: every table in the supabase_realtime publication
-- gets an AFTER ROW trigger that NOTIFYs 'local_realtime' with the change. NOTIFY is delivered at
-- commit, in commit order, and never for rolled-back transactions, which is what subscribers need.
-- Payloads above NOTIFY's 8000-byte limit carry only the primary key; the realtime service then
-- reads the row itself (as the subscriber, so RLS still decides).

create or replace function local_stack.realtime_notify() returns trigger
language plpgsql
as $$
declare
  pk_cols text[] := TG_ARGV;
  rec jsonb := case when TG_OP <> 'DELETE' then to_jsonb(NEW) end;
  old jsonb := case when TG_OP <> 'INSERT' then to_jsonb(OLD) end;
  pk jsonb := '{}'::jsonb;
  src jsonb := coalesce(rec, old);
  c text;
  body text;
begin
  foreach c in array pk_cols loop
    pk := pk || jsonb_build_object(c, src -> c);
  end loop;
  body := jsonb_build_object(
    'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP,
    'commit_timestamp', to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'pk', pk, 'record', rec, 'old_record', old)::text;
  if octet_length(body) > 7800 then
    -- A DELETE cannot be re-read, so its old row keeps the small values (<= 64 bytes, as Supabase's
    -- 413 fallback does): enough for the tenant column and keys its RLS check needs.
    body := jsonb_build_object(
      'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP,
      'commit_timestamp', to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      'pk', pk, 'truncated', true,
      'old_record', case when TG_OP = 'DELETE' then
        (select jsonb_object_agg(e.key, e.value) from jsonb_each(old) e where octet_length(e.value::text) <= 64)
      end)::text;
  end if;
  perform pg_notify('local_realtime', body);
  return null;
end $$;

-- Acting as a subscriber: its role and its claims as PostgREST presents them to policies
-- (request.jwt.claims and the legacy request.jwt.claim.sub/role), all transaction-local. The role
-- switch outlives the call (no SET clause), so the caller restores its own role after the check, and
-- an error inside the caller's subtransaction rolls all of it back. The one place the checks below
-- take this from: a claim the policies read is added here once.
create or replace function local_stack.realtime_claims_set(p_claims jsonb) returns void
language plpgsql
as $$
begin
  -- One statement, not four: this runs once per subscriber group of every change.
  perform set_config('role', p_claims ->> 'role', true),
          set_config('request.jwt.claims', p_claims::text, true),
          set_config('request.jwt.claim.sub', coalesce(p_claims ->> 'sub', ''), true),
          set_config('request.jwt.claim.role', coalesce(p_claims ->> 'role', ''), true);
end $$;
revoke all on function local_stack.realtime_claims_set(jsonb) from public;

-- No subscriber's claims are left set once a check is done.
create or replace function local_stack.realtime_claims_clear() returns void
language plpgsql
as $$
begin
  perform set_config('request.jwt.claims', '', true),
          set_config('request.jwt.claim.sub', '', true),
          set_config('request.jwt.claim.role', '', true);
end $$;
revoke all on function local_stack.realtime_claims_clear() from public;

-- Per published table, local_stack.realtime_visible_<table oid>(pk, claims, want_rows) answers which
-- of several subscribers may see one row, decided by PostgreSQL itself: for each claim set (a jsonb
-- array; element i = subscriber group i) it switches to the claims' role, sets request.jwt.claims
-- (and the legacy request.jwt.claim.sub/role), and reads the row by primary key. One call answers for
-- every subscriber of a change, so fan-out costs one round trip. The query is static SQL, so its plan
-- is cached across the loop (dynamic EXECUTE would re-plan it for every subscriber, ~4x slower).
-- SECURITY INVOKER on purpose: the caller is the realtime service's superuser connection, whose
-- session user may switch to any role. Each check runs in its own subtransaction: an error (e.g.
-- "permission denied" for a role without grants) rolls back that check, role switch included, and
-- means "not visible". Rows are returned only when want_rows (truncated NOTIFY payloads).
create or replace function local_stack.create_realtime_visibility(p_schema text, p_table text, p_pk text[])
returns void
language plpgsql
as $gen$
declare
  fn text := 'realtime_visible_' || format('%I.%I', p_schema, p_table)::regclass::oid;
  pk_match text;
  v_body text;
begin
  select string_agg(format('t.%1$I = k.%1$I', c), ' and ') into pk_match from unnest(p_pk) c;
  if pk_match is null then
    execute format('drop function if exists local_stack.%I(jsonb, jsonb, boolean)', fn);
    return;
  end if;
  v_body := format($body$
    declare
      k %1$I.%2$I := jsonb_populate_record(null::%1$I.%2$I, p_pk);
      v_claims jsonb;
      v_index bigint;
      v_row jsonb;
      v_found boolean;
      v_prev_role text := current_setting('role');
    begin
      for v_claims, v_index in select e.value, e.ordinality - 1 from jsonb_array_elements(p_claims) with ordinality e loop
        begin
          perform local_stack.realtime_claims_set(v_claims);
          -- The row is serialized only when asked for; a plain check is a PERFORM (sets FOUND).
          if p_want_rows then
            select to_jsonb(t) into v_row from %1$I.%2$I t where %3$s;
            v_found := v_row is not null;
          else
            perform from %1$I.%2$I t where %3$s;
            v_found := found;
          end if;
          perform set_config('role', v_prev_role, true);
          if v_found then
            claims_index := v_index;
            row_data := case when p_want_rows then v_row end;
            return next;
          end if;
        exception when others then
          null;
        end;
      end loop;
      perform local_stack.realtime_claims_clear();
    end $body$, p_schema, p_table, pk_match);
  -- Unchanged: left alone. Replacing a function makes every session compile and plan it anew, which
  -- costs the realtime service's warmed connections 20-70 ms on their next check of this table
  -- (check-pool.ts); this runs at every stack start and whenever any table is published.
  if exists (select 1 from pg_proc p
             where p.oid = to_regprocedure(format('local_stack.%I(jsonb,jsonb,boolean)', fn)) and p.prosrc = v_body) then
    return;
  end if;
  execute format(
    'create or replace function local_stack.%I(p_pk jsonb, p_claims jsonb, p_want_rows boolean)
       returns table (claims_index int, row_data jsonb) language plpgsql security invoker as %L',
    fn, v_body);
  execute format('revoke all on function local_stack.%I(jsonb, jsonb, boolean) from public', fn);
end $gen$;

-- Warms a fresh session for the checks above: PostgreSQL compiles a PL/pgSQL function, plans its
-- queries (RLS policies included, per role) and loads the catalog entries they touch once per session,
-- which costs a new connection 20-70 ms on its first check of each table, against well under 1 ms once
-- warm. The realtime service runs this on each connection of its own pool
-- (supabase/local/realtime/check-pool.ts) before that connection serves a change. Each published
-- table's visibility function is run once on one of its rows as an 'authenticated' subscriber without
-- a sub (the product's policies then admit nothing); the answer is discarded.
create or replace function local_stack.realtime_warm() returns void
language plpgsql
as $$
declare
  t record;
  v_row jsonb;
begin
  for t in
    select p.proname, pt.schemaname, pt.tablename
    from pg_publication_tables pt
    join pg_proc p on p.proname = 'realtime_visible_' || format('%I.%I', pt.schemaname, pt.tablename)::regclass::oid
    join pg_namespace n on n.oid = p.pronamespace and n.nspname = 'local_stack'
    where pt.pubname = 'supabase_realtime'
  loop
    execute format('select to_jsonb(x) from %I.%I x limit 1', t.schemaname, t.tablename) into v_row;
    execute format('select count(*) from local_stack.%I($1, $2, false)', t.proname)
      using coalesce(v_row, '{}'::jsonb), '[{"role": "authenticated"}]'::jsonb;
  end loop;
end $$;
revoke all on function local_stack.realtime_warm() from public;

-- (Re)creates the trigger on every published table; drops it from tables no longer published.
create or replace function local_stack.sync_realtime_triggers() returns void
language plpgsql
as $$
declare
  t record;
  pk text[];
begin
  for t in
    select c.oid, n.nspname, c.relname
    from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where tg.tgname = 'local_realtime_notify'
      and not exists (select 1 from pg_publication_tables p
                      where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname)
  loop
    execute format('drop trigger local_realtime_notify on %I.%I', t.nspname, t.relname);
  end loop;

  -- Visibility functions of tables no longer published (or dropped) go too.
  for t in
    select p.oid::regprocedure as sig
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'local_stack' and p.proname ~ '^realtime_visible_[0-9]+$'
      and substring(p.proname from 18) not in (
        select format('%I.%I', pt.schemaname, pt.tablename)::regclass::oid::text
        from pg_publication_tables pt where pt.pubname = 'supabase_realtime')
  loop
    execute format('drop function %s', t.sig);
  end loop;

  for t in select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime' loop
    select array_agg(a.attname order by array_position(i.indkey::int2[], a.attnum)) into pk
    from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = format('%I.%I', t.schemaname, t.tablename)::regclass and i.indisprimary;
    execute format('drop trigger if exists local_realtime_notify on %I.%I', t.schemaname, t.tablename);
    execute format(
      'create trigger local_realtime_notify after insert or update or delete on %I.%I for each row execute function local_stack.realtime_notify(%s)',
      t.schemaname, t.tablename,
      coalesce((select string_agg(quote_literal(x), ',') from unnest(pk) x), ''));
    perform local_stack.create_realtime_visibility(t.schemaname, t.tablename, coalesce(pk, '{}'));
  end loop;
end $$;

-- A DELETE cannot be re-read as the subscriber: the row is gone. local_stack.realtime_delete_visible
-- decides from the old row itself (what REPLICA IDENTITY gives) whether each claim set could have
-- read it: SELECT privilege on the table, then the table's SELECT policies (permissive ones OR-ed,
-- restrictive ones AND-ed, as PostgreSQL combines them; roles with BYPASSRLS and a non-forced owner
-- skip them) evaluated on the old row, with the subscriber's role and claims set so auth.uid() and
-- the policy helpers see that subscriber. Stricter than Supabase, which does not RLS-check deletes at
-- all (realtime.apply_rls: "if RLS enabled, we can't secure deletes so filter to pkey") and so lets
-- any subscriber whose filter matches learn the key. Fails closed: an error, a policy without USING,
-- or a column missing from the old row (NULL) all mean "not visible".
create or replace function local_stack.realtime_delete_visible(p_table regclass, p_old jsonb, p_claims jsonb)
returns table (claims_index int)
language plpgsql
as $$
declare
  v_rel record;
  v_claims jsonb;
  v_index bigint;
  v_role text;
  v_role_rec record;
  v_permissive text;
  v_restrictive text;
  v_expr text;
  v_ok boolean;
  v_prev_role text := current_setting('role');
begin
  select c.relname, c.relrowsecurity, c.relforcerowsecurity, c.relowner into v_rel
  from pg_class c where c.oid = p_table;
  for v_claims, v_index in select e.value, e.ordinality - 1 from jsonb_array_elements(p_claims) with ordinality e loop
    begin
      v_role := v_claims ->> 'role';
      select r.oid, r.rolbypassrls into v_role_rec from pg_roles r where r.rolname = v_role;
      if v_role_rec.oid is null or not has_table_privilege(v_role_rec.oid, p_table, 'SELECT') then
        continue;
      end if;
      if not v_rel.relrowsecurity or v_role_rec.rolbypassrls
         or (pg_has_role(v_role_rec.oid, v_rel.relowner, 'MEMBER') and not v_rel.relforcerowsecurity) then
        v_expr := 'true';
      else
        select string_agg(format('(%s)', coalesce(pg_get_expr(p.polqual, p.polrelid), 'false')), ' or ')
                 filter (where p.polpermissive),
               string_agg(format('(%s)', coalesce(pg_get_expr(p.polqual, p.polrelid), 'false')), ' and ')
                 filter (where not p.polpermissive)
          into v_permissive, v_restrictive
        from pg_policy p
        where p.polrelid = p_table and p.polcmd in ('r', '*')
          and (0 = any(p.polroles) or exists (select 1 from unnest(p.polroles) r where pg_has_role(v_role_rec.oid, r, 'MEMBER')));
        v_expr := format('(%s) and (%s)', coalesce(v_permissive, 'false'), coalesce(v_restrictive, 'true'));
      end if;
      perform local_stack.realtime_claims_set(v_claims);
      execute format('select exists (select 1 from jsonb_populate_record(null::%s, $1) as %I where %s)',
                     p_table, v_rel.relname, v_expr)
        into v_ok using p_old;
      perform set_config('role', v_prev_role, true);
      if v_ok then
        claims_index := v_index;
        return next;
      end if;
    exception when others then
      null;
    end;
  end loop;
  perform local_stack.realtime_claims_clear();
end $$;
revoke all on function local_stack.realtime_delete_visible(regclass, jsonb, jsonb) from public;

-- Whether a claim set may broadcast into (and receive broadcasts of) a topic: the project's
-- public.realtime_topic_allowed(topic), called as that subscriber (role + claims), decides, the way
-- hosted Realtime runs realtime.messages policies as the subscriber (supabase/realtime,
-- lib/realtime/tenants/authorization.ex); NULL when the project has no such function. An error (e.g. anon lacking a helper
-- the rule calls) means "not allowed".
create or replace function local_stack.realtime_topic_allowed(p_topic text, p_claims jsonb)
returns boolean
language plpgsql
as $$
declare
  v_ok boolean;
  v_prev_role text := current_setting('role');
begin
  -- A role that bypasses RLS (service_role) passes hosted Realtime's realtime.messages policies too.
  if exists (select 1 from pg_roles r where r.rolname = p_claims ->> 'role' and r.rolbypassrls) then
    return true;
  end if;
  -- NULL: the project has no rule (public channels open, private channels refused, as on hosted
  -- where realtime.messages without policies admits nobody).
  if to_regprocedure('public.realtime_topic_allowed(text)') is null then
    return null;
  end if;
  begin
    perform local_stack.realtime_claims_set(p_claims);
    execute 'select public.realtime_topic_allowed($1)' into v_ok using p_topic;
    perform set_config('role', v_prev_role, true);
  exception when others then
    v_ok := false;
  end;
  perform local_stack.realtime_claims_clear();
  return coalesce(v_ok, false);
end $$;
revoke all on function local_stack.realtime_topic_allowed(text, jsonb) from public;

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
    body := jsonb_build_object(
      'schema', TG_TABLE_SCHEMA, 'table', TG_TABLE_NAME, 'type', TG_OP,
      'commit_timestamp', to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      'pk', pk, 'truncated', true)::text;
  end if;
  perform pg_notify('local_realtime', body);
  return null;
end $$;

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
  end loop;
end $$;

-- Broadcast from the database (issue 41 part 2): the `realtime` schema a hosted project has before any
-- of our migrations, as supabase/realtime's tenant migrations leave it (lib/realtime/tenants/repo/
-- migrations/): realtime.messages partitioned by day on inserted_at (20241030150047_messages_partitioning,
-- 20241108114728_messages_using_uuid: uuid id, primary key (id, inserted_at);
-- 20260514120000_add_binary_payload_to_messages), owned by supabase_realtime_admin with RLS on and
-- SELECT/INSERT/UPDATE granted to the API roles (20240523004032_redefine_authorization_tables),
-- realtime.topic() (same file), realtime.send() that never raises (20260605120000_rename_broadcast_send_
-- warning: any error becomes a WARNING) and realtime.broadcast_changes() (20240919163303_add_payload_to_
-- messages). Hosted Realtime reads committed inserts of realtime.messages from the WAL and broadcasts
-- each on its topic, to private channels when `private` (lib/realtime/tenants/replication_connection.ex);
-- here an AFTER INSERT trigger NOTIFYs the row's key at commit and supabase/local/realtime reads the row.
-- Idempotent: it runs at every start. An existing realtime.messages (a test's stand-in) is left alone.

-- The owner role hosted Realtime creates (20240401105812_create_realtime_admin_and_move_ownership), and
-- the schema with usage for the API roles (20211122062447_grant_realtime_usage_to_authenticated_role).
do $$
begin
  perform 1 from pg_roles where rolname = 'supabase_realtime_admin';
  if not found then
    create role supabase_realtime_admin nologin noinherit noreplication;
  end if;
  create schema if not exists realtime;
  grant usage on schema realtime to anon, authenticated, service_role, migration_owner;
end $$;

do $$
begin
  if to_regclass('realtime.messages') is not null then
    return;
  end if;
  create table realtime.messages (
    topic text not null,
    extension text not null,
    payload jsonb,
    event text,
    private boolean default false,
    updated_at timestamp not null default now(),
    inserted_at timestamp not null default now(),
    id uuid not null default gen_random_uuid(),
    binary_payload bytea,
    constraint messages_payload_exclusive check (payload is null or binary_payload is null),
    primary key (id, inserted_at)
  ) partition by range (inserted_at);
  create index messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic)
    where extension = 'broadcast' and private is true;
  alter table realtime.messages enable row level security;
  alter table realtime.messages owner to supabase_realtime_admin;
  grant select, insert, update on realtime.messages to anon, authenticated, service_role, migration_owner;
end $$;

-- The migration owner may add policies to realtime.messages, as hosted `postgres` may (a member of
-- supabase_realtime_admin: 20240401105812_create_realtime_admin_and_move_ownership; supautils'
-- policy_grants since 20260707120000_restrict_realtime_schema). Only when the table is ours.
do $$
begin
  if (select relowner::regrole::text from pg_class where oid = 'realtime.messages'::regclass) = 'supabase_realtime_admin' then
    grant supabase_realtime_admin to migration_owner;
  end if;
end $$;

create or replace function realtime.topic() returns text
language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '')::text; $$;

create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;
    execute format('SET LOCAL realtime.topic TO %L', topic);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end $$;

create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW')
returns void
language plpgsql
as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation,
                                   'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception
  when others then
    raise exception 'Failed to process the row: %', sqlerrm;
end $$;

alter function realtime.topic() owner to supabase_realtime_admin;
alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text) owner to supabase_realtime_admin;

-- Hosted Realtime's janitor (lib/realtime/tenants.ex create_messages_partitions: yesterday to three days
-- ahead, one partition a day, owned by supabase_realtime_admin; lib/realtime/messages.ex
-- delete_old_messages: partitions of days older than 72 hours are dropped). The local realtime runs
-- it at start and every hour; without a partition realtime.send only warns, as on hosted.
create or replace function local_stack.realtime_messages_maintain() returns void
language plpgsql
as $$
declare
  d date;
  r record;
  v_limit date := ((now() at time zone 'utc') - interval '72 hours')::date;
begin
  if to_regclass('realtime.messages') is null
     or (select relkind from pg_class where oid = 'realtime.messages'::regclass) <> 'p' then
    return;
  end if;
  for d in select generate_series((now() at time zone 'utc')::date - 1, (now() at time zone 'utc')::date + 3, '1 day')::date loop
    if to_regclass(format('realtime.%I', 'messages_' || to_char(d, 'YYYY_MM_DD'))) is null then
      execute format('create table realtime.%I partition of realtime.messages for values from (%L) to (%L)',
                     'messages_' || to_char(d, 'YYYY_MM_DD'), d, d + 1);
      execute format('alter table realtime.%I owner to supabase_realtime_admin', 'messages_' || to_char(d, 'YYYY_MM_DD'));
    end if;
  end loop;
  for r in select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'realtime.messages'::regclass and c.relname ~ '^messages_\d{4}_\d{2}_\d{2}$' loop
    if to_date(substr(r.relname, 10), 'YYYY_MM_DD') < v_limit then
      execute format('drop table if exists realtime.%I', r.relname);
    end if;
  end loop;
end $$;
revoke all on function local_stack.realtime_messages_maintain() from public;
select local_stack.realtime_messages_maintain();

-- The local stand-in for the WAL reader: a committed broadcast row's key, NOTIFYed at commit (never for
-- a rolled-back one) on the channel the realtime service listens on. The service reads the row itself,
-- so a NOTIFY forged by another session can only name a row that exists. The topic rides along so the
-- service skips the read when no channel has joined it (supabase/local/realtime/db-broadcast.ts); a
-- topic too long to ride in a NOTIFY (8,000 bytes) is left out, and such a row is read as before.
create or replace function local_stack.realtime_message_notify() returns trigger
language plpgsql
as $$
begin
  if NEW.extension = 'broadcast' then
    perform pg_notify('local_realtime', jsonb_build_object(
      'broadcast', jsonb_build_object('id', NEW.id, 'inserted_at', NEW.inserted_at,
        'topic', case when octet_length(NEW.topic) <= 1024 then NEW.topic end))::text);
  end if;
  return null;
end $$;
revoke all on function local_stack.realtime_message_notify() from public;

do $$
begin
  if (select relkind from pg_class where oid = 'realtime.messages'::regclass) = 'p'
     and not exists (select 1 from pg_trigger where tgrelid = 'realtime.messages'::regclass
                      and tgname = 'local_realtime_broadcast' and tgparentid = 0) then
    create trigger local_realtime_broadcast after insert on realtime.messages
      for each row execute function local_stack.realtime_message_notify();
  end if;
end $$;

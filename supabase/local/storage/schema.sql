-- The `storage` schema as a hosted project has it before any migration of ours (hosted: created and
-- migrated by the Storage service itself, supabase/storage migrations/tenant/0002-storage-schema.sql
-- and later files). Like sql/bootstrap.sql this is the platform's part, run on every start as the
-- superuser, idempotent; our migrations only add buckets and policies, so `supabase db push` does the
-- same on a hosted project. Only the columns and helpers the Storage API and policies use are here.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin nologin noinherit createrole;
  end if;
end $$;
-- Hosted postgres may manage storage policies (supabase/postgres migrations/db/migrations/
-- 20220609081115_grant-supabase-auth-admin-and-supabase-storage-admin-to-postgres.sql).
grant supabase_storage_admin to migration_owner;

create schema if not exists storage authorization supabase_storage_admin;
grant usage on schema storage to migration_owner, anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[]
);
create unique index if not exists bname on storage.buckets using btree (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects using btree (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;

-- 0046-buckets-objects-grants.sql: the API roles hold every table privilege; RLS decides.
grant all on storage.buckets, storage.objects to migration_owner with grant option;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

-- Path helpers (0002-storage-schema.sql; IMMUTABLE since 0036/0060/0061).
create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable as $$
declare _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end $$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable as $$
declare _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end $$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable as $$
declare _parts text[]; _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end $$;
alter function storage.foldername(text) owner to supabase_storage_admin;
alter function storage.filename(text) owner to supabase_storage_admin;
alter function storage.extension(text) owner to supabase_storage_admin;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role, migration_owner;

-- 0055-prevent-direct-deletes.sql: rows leave only through the Storage API (which sets
-- storage.allow_delete_query for its own statement), never by a DELETE from SQL or PostgREST.
create or replace function storage.protect_delete() returns trigger
language plpgsql as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.', errcode = '42501';
  end if;
  return null;
end $$;
alter function storage.protect_delete() owner to supabase_storage_admin;
drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();

-- What a Supabase project provides before any migration runs, recreated for the local stack, and
-- nothing more. Idempotent: runs on every start (as the superuser, like supabase_admin on Supabase).
-- Production never runs this file; Supabase has all of it. Sources (read, not copied):
--   supabase/postgres migrations/db/init-scripts/00000000000000-initial-schema.sql   API roles, the
--     `extensions` schema with pgcrypto, statement_timeout anon 3s / authenticated 8s
--   supabase/postgres migrations/db/migrations/20221028101028_set_authenticator_timeout.sql   authenticator 8s
--   supabase/postgres migrations/db/migrations/10000000000000_demote-postgres.sql   `postgres` is
--     NOSUPERUSER CREATEDB CREATEROLE LOGIN REPLICATION BYPASSRLS, with ALL on the auth schema's tables
--   supabase/cli apps/cli-go/internal/db/start/start.go (RevokeDefaultDataApiPrivilegesSql)   what the
--     dashboard runs on new projects (default since 2026-05-30, all projects since 2026-10-30): new
--     tables, sequences and functions in `public` owned by `postgres` are NOT granted to anon,
--     authenticated or service_role. Every migration grants what it creates.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin nologin noinherit;
  end if;
  -- The migration owner: what `postgres` is on a hosted project (demoted, not a superuser). Migrations
  -- and the seed run as this role (migrate.ts: SET LOCAL ROLE), as `supabase db push` runs them as
  -- `postgres`, so a migration that needs superuser powers fails here first. Our own superuser keeps
  -- the name `postgres` (initdb) and plays supabase_admin.
  if not exists (select 1 from pg_roles where rolname = 'migration_owner') then
    create role migration_owner nologin nosuperuser createdb createrole replication bypassrls;
  end if;
end $$;
alter role migration_owner nosuperuser createdb createrole replication bypassrls;

grant anon, authenticated, service_role to authenticator;
-- As on Supabase (supabase/postgres migrations/db/migrations/20230201083204_grant_auth_roles_to_postgres.sql).
grant anon, authenticated, service_role to migration_owner;

-- API role timeouts, as on Supabase. PostgREST applies the impersonated role's settings per request.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';

-- Extensions live in their own schema. Databases made by an older bootstrap had pgcrypto in public
-- (where anon could call crypt() through /rest/v1/rpc); move it.
create schema if not exists extensions;
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pgcrypto' and extnamespace <> 'extensions'::regnamespace) then
    alter extension pgcrypto set schema extensions;
  end if;
end $$;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to anon, authenticated, service_role;
grant all on schema extensions to migration_owner;

-- public: usable by the API roles, owned in practice by the migration owner. No default privileges
-- for the API roles. The dashboard's revoke leaves TRUNCATE/REFERENCES/TRIGGER (and UPDATE on
-- sequences) in hosted defaults; PostgREST cannot use them, and locally we grant none at all, which
-- is stricter, never looser. An older bootstrap granted everything by default: take that back.
grant usage on schema public to anon, authenticated, service_role;
grant all on schema public to migration_owner;
do $$
begin
  execute format('grant create, connect, temporary on database %I to migration_owner', current_database());
end $$;
alter default privileges in schema public revoke all on tables from anon, authenticated, service_role;
alter default privileges in schema public revoke all on functions from anon, authenticated, service_role;
alter default privileges in schema public revoke all on sequences from anon, authenticated, service_role;
alter default privileges for role migration_owner in schema public revoke all on tables from anon, authenticated, service_role;
alter default privileges for role migration_owner in schema public revoke all on functions from anon, authenticated, service_role;
alter default privileges for role migration_owner in schema public revoke all on sequences from anon, authenticated, service_role;

-- ---------------------------------------------------------------- auth schema (GoTrue's tables)
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud text not null default 'authenticated',
  role text not null default 'authenticated',
  email text,
  encrypted_password text,
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_sent_at timestamptz,
  recovery_sent_at timestamptz,
  email_change text,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  is_super_admin boolean,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  phone text,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_key on auth.users (lower(email)) where email is not null;

create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  aal text not null default 'aal1',
  amr jsonb not null default '[]'::jsonb,
  not_after timestamptz,
  refreshed_at timestamptz,
  user_agent text,
  ip text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_idx on auth.refresh_tokens (session_id);

-- PKCE flows: an auth code issued after verification, exchanged once with the code verifier.
create table if not exists auth.flow_state (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  auth_code text not null unique,
  code_challenge text not null,
  code_challenge_method text not null,
  authentication_method text not null,
  created_at timestamptz not null default now(),
  auth_code_issued_at timestamptz
);

-- Mailed one-time tokens (magic link, recovery, signup confirmation); only their hash is stored.
create table if not exists auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null,
  token_hash text not null unique,
  relates_to text not null,
  code_challenge text,
  code_challenge_method text,
  created_at timestamptz not null default now()
);
create index if not exists one_time_tokens_user_idx on auth.one_time_tokens (user_id, token_type);
-- The 6-digit code mailed beside the link, hashed with the user id so equal codes of two users differ.
alter table auth.one_time_tokens add column if not exists otp_hash text;
create index if not exists one_time_tokens_otp_idx on auth.one_time_tokens (otp_hash) where otp_hash is not null;

-- Supabase's helpers: the claims PostgREST puts into request.jwt.claims.
create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email() to anon, authenticated, service_role;
grant select on auth.users to service_role;

-- ---------------------------------------------------------------- realtime publication
-- Migrations add tables to supabase_realtime exactly as on Supabase; the local stack turns each
-- published table into NOTIFY triggers (supabase/local/realtime), so migrations stay portable.
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end $$;
-- Owned by `postgres` on Supabase, so `alter publication … add table` works in a migration.
alter publication supabase_realtime owner to migration_owner;

-- ---------------------------------------------------------------- migration bookkeeping
create schema if not exists local_stack;
create table if not exists local_stack.schema_migrations (
  version text primary key,
  checksum text not null,
  applied_at timestamptz not null default now()
);
create table if not exists local_stack.seeded (
  id boolean primary key default true check (id),
  seeded_at timestamptz not null default now()
);

-- Schema reload for PostgREST after migrations.
notify pgrst, 'reload schema';

-- Databases migrated by an older bootstrap ran the migrations as the superuser. Hand what they made
-- in public and private to the migration owner, so later migrations (run as that role) may replace
-- and alter it, as `postgres` may on Supabase. Extension members stay with their extension.
do $$
declare
  me oid := (select oid from pg_roles where rolname = current_user);
  r record;
begin
  for r in
    select n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'private') and c.relowner = me and c.relkind in ('r', 'p', 'v', 'm', 'f')
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
  loop
    execute format('alter %s %I.%I owner to migration_owner',
      case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end,
      r.nspname, r.relname);
  end loop;
  for r in
    select p.oid::regprocedure as sig, p.prokind from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private') and p.proowner = me
       and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  loop
    execute format('alter %s %s owner to migration_owner', case when r.prokind = 'p' then 'procedure' else 'function' end, r.sig);
  end loop;
  for r in
    select n.nspname, t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where n.nspname in ('public', 'private') and t.typowner = me and t.typtype in ('e', 'd')
  loop
    execute format('alter type %I.%I owner to migration_owner', r.nspname, r.typname);
  end loop;
  if exists (select 1 from pg_namespace where nspname = 'private' and nspowner = me) then
    alter schema private owner to migration_owner;
  end if;
end $$;

-- Last, so it covers every auth table made above. As `postgres` on Supabase (demote-postgres.sql):
-- all on the auth schema's tables, so migrations may add triggers and foreign keys to auth.users and
-- definer functions may read and delete users.
grant usage on schema auth to migration_owner;
grant all on all tables in schema auth to migration_owner;
grant all on all sequences in schema auth to migration_owner;
grant all on all routines in schema auth to migration_owner;

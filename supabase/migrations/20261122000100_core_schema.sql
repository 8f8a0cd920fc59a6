-- Poradňa core schema: accounts and their members, plans and specialists, conversations, messages,
-- read cursors, and the admin/integration tables. Behaviour (change feed, guards, RLS, RPCs) lives
-- in the later migrations; this file only states shapes, keys and constraints.
--
-- Invariants stated here:
--   * one account per user (account_users.user_id is unique);
--   * an account has at most one ACTIVE conversation per specialist (start_conversation relies on it);
--   * a message is identified per conversation by its client_correlation_id (idempotent sends);
--   * change_seq columns are filled by triggers (20261122000300_change_feed.sql), never by clients.

create schema if not exists private;
comment on schema private is 'Internal helpers and trigger functions; not exposed through the API.';
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- ---------------------------------------------------------------- plans and specialists
create table public.plans (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[A-Z][A-Z0-9_]*$'),
  name text not null,
  created_at timestamptz not null default now()
);

create table public.specialists (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  role text,
  seniority text,
  avatar_url text,
  bio text,
  skills text[] not null default '{}',
  is_ai boolean not null default true,
  default_tier text,
  chatwoot_inbox_id bigint,
  -- The fixed assistant of the request-specialist flow (user-area.md section 7); every account may
  -- talk to it whatever its plan, and ensure_first_conversation opens the first chat with it.
  is_assistant boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index specialists_single_assistant on public.specialists (is_assistant) where is_assistant;

create table public.plan_specialists (
  plan_id uuid not null references public.plans (id) on delete cascade,
  specialist_id uuid not null references public.specialists (id) on delete cascade,
  primary key (plan_id, specialist_id)
);
create index plan_specialists_specialist_idx on public.plan_specialists (specialist_id);

-- ---------------------------------------------------------------- accounts and people
create table public.accounts (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  owner_email text,
  -- plan (code) and plan_id always name the same plan; a trigger keeps them in step.
  plan text not null default 'FREE',
  plan_id uuid references public.plans (id),
  specialists_mode text not null default 'DEFAULT' check (specialists_mode in ('DEFAULT', 'CUSTOM')),
  -- The account's change counter: the last number handed to a row of this account (change feed).
  change_seq bigint not null default 0,
  -- Newest message time, kept by the messages trigger (v_admin_accounts.last_activity).
  last_activity_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index accounts_plan_id_idx on public.accounts (plan_id);
create index accounts_owner_email_idx on public.accounts (lower(owner_email));

create table public.account_users (
  account_id uuid not null references public.accounts (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null default 'owner' check (role in ('owner', 'member')),
  created_at timestamptz not null default now(),
  primary key (account_id, user_id),
  -- One account per user (user-area.md section 3).
  unique (user_id)
);

create table public.app_users (
  user_id uuid primary key references auth.users (id) on delete cascade,
  role text not null check (role = 'super_admin'),
  created_at timestamptz not null default now()
);

-- Explicit assignments, used in CUSTOM mode (admin-area.md section 3).
create table public.account_specialists (
  account_id uuid not null references public.accounts (id) on delete cascade,
  specialist_id uuid not null references public.specialists (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (account_id, specialist_id)
);
create index account_specialists_specialist_idx on public.account_specialists (specialist_id);

-- ---------------------------------------------------------------- conversations and messages
create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  specialist_id uuid references public.specialists (id) on delete set null,
  -- 'active' or 'completed'; the UI shows anything but 'active' as Ukončené.
  status text not null default 'active' check (status in ('active', 'completed')),
  last_message_at timestamptz,
  archived_at timestamptz,
  chatwoot_conversation_id bigint,
  -- The specialist card that started this conversation (start_conversation p_card_id), if any.
  card_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  change_seq bigint not null
);
create index conversations_feed_idx on public.conversations (account_id, change_seq);
create index conversations_list_idx on public.conversations (account_id, last_message_at desc);
create index conversations_specialist_idx on public.conversations (specialist_id);
-- start-conversation answers created=false for an existing conversation with that specialist:
-- at most one active conversation per (account, specialist); a completed one may be followed by a new one.
create unique index conversations_one_active_per_specialist
  on public.conversations (account_id, specialist_id) where status = 'active';
create unique index conversations_chatwoot_id_key
  on public.conversations (chatwoot_conversation_id) where chatwoot_conversation_id is not null;

create table public.messages (
  id uuid primary key default gen_random_uuid(),
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  -- Copied from the conversation by a trigger; clients need not send it and cannot forge it.
  account_id uuid not null references public.accounts (id) on delete cascade,
  text text,
  type text not null default 'text' check (type in ('text', 'json', 'rich', 'rich-content')),
  direction text not null check (direction in ('user', 'specialist', 'system', 'ai')),
  source text,
  chatwoot_message_id bigint,
  -- No default on purpose: the insert trigger stamps clock_timestamp() under the conversation's lock,
  -- so created_at order within a conversation is commit order. Server code may supply a time.
  created_at timestamptz not null,
  read_at timestamptz,
  payload jsonb check (payload is null or jsonb_typeof(payload) = 'object'),
  -- Client-made UUID; mirrored in payload.client_correlation_id (user-area.md section 3).
  client_correlation_id uuid,
  sender_user_id uuid default auth.uid(),
  change_seq bigint not null
);
create index messages_feed_idx on public.messages (account_id, change_seq);
-- Conversation order is (created_at, id): loading a chat and counting after a read cursor.
create index messages_order_idx on public.messages (conversation_id, created_at, id);
-- Unread counts touch only specialist messages after the cursor.
create index messages_unread_idx on public.messages (conversation_id, created_at, id) where direction = 'specialist';
-- Idempotent sends: NULLs are distinct, so messages without a correlation id never collide.
create unique index messages_correlation_key on public.messages (conversation_id, client_correlation_id);
create unique index messages_chatwoot_id_key on public.messages (chatwoot_message_id) where chatwoot_message_id is not null;

create table public.read_cursors (
  user_id uuid not null references auth.users (id) on delete cascade,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  account_id uuid not null references public.accounts (id) on delete cascade,
  last_read_message_id uuid references public.messages (id) on delete set null,
  -- The created_at of last_read_message_id: the cursor's position in the conversation's
  -- (created_at, id) order, copied by the trigger so unread counts need no join.
  last_read_at timestamptz,
  updated_at timestamptz not null default now(),
  change_seq bigint not null,
  primary key (user_id, conversation_id)
);
create index read_cursors_feed_idx on public.read_cursors (account_id, change_seq);
create index read_cursors_conversation_idx on public.read_cursors (conversation_id);
create index read_cursors_message_idx on public.read_cursors (last_read_message_id);

-- Tombstones of deleted conversations and messages, numbered in the same change feed so a puller
-- learns about deletions in order. No foreign key: the rows they describe are gone.
create table public.deleted_rows (
  id bigint generated always as identity primary key,
  account_id uuid not null,
  table_name text not null check (table_name in ('conversations', 'messages')),
  row_id uuid not null,
  change_seq bigint not null,
  deleted_at timestamptz not null default now()
);
create index deleted_rows_feed_idx on public.deleted_rows (account_id, change_seq);

-- ---------------------------------------------------------------- admin and integration
-- An active impersonation: the super admin acts inside account_id until stop_impersonation().
create table public.impersonations (
  admin_user_id uuid primary key references auth.users (id) on delete cascade,
  account_id uuid not null references public.accounts (id) on delete cascade,
  started_at timestamptz not null default now()
);
create index impersonations_account_idx on public.impersonations (account_id);

create table public.audit_log (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  actor_user_id uuid,
  account_id uuid,
  action text not null,
  table_name text,
  row_id text,
  details jsonb not null default '{}'::jsonb
);
create index audit_log_account_idx on public.audit_log (account_id, created_at desc);
create index audit_log_created_idx on public.audit_log (created_at desc);

-- The Chatwoot connection; a single row (admin-area.md section 3).
create table public.chatwoot_config (
  id uuid primary key default gen_random_uuid(),
  api_base_url text not null,
  account_id bigint not null,
  singleton boolean not null default true unique check (singleton),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.integration_events (
  id uuid primary key default gen_random_uuid(),
  kind text not null,
  level text not null default 'info',
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index integration_events_created_idx on public.integration_events (created_at desc);

-- Durable AI reply jobs: recorded in the same transaction as the user message, so a crash loses
-- nothing; one job per message (message_id unique), hence at most one reply per message.
create table public.ai_reply_jobs (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null unique references public.messages (id) on delete cascade,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  account_id uuid not null references public.accounts (id) on delete cascade,
  specialist_id uuid references public.specialists (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'running', 'done', 'failed')),
  attempts int not null default 0,
  -- pending: not before this time; running: the claim's lease ends at this time.
  run_after timestamptz not null default now(),
  locked_by text,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index ai_reply_jobs_due_idx on public.ai_reply_jobs (run_after) where status in ('pending', 'running');
create index ai_reply_jobs_conversation_idx on public.ai_reply_jobs (conversation_id);

-- ---------------------------------------------------------------- reference data
-- Needed by the signup trigger and ensure_first_conversation on any database, including a
-- production project where seed.sql never runs. The seed adds the plans' specialists.
insert into public.plans (code, name) values
  ('FREE', 'Free'),
  ('PRO', 'Pro'),
  ('ENTERPRISE', 'Enterprise')
on conflict (code) do nothing;

insert into public.specialists (id, name, role, seniority, avatar_url, bio, skills, is_ai, default_tier, is_assistant)
values (
  '00000000-0000-4000-8000-000000000001',
  'Asistent Poradne',
  'Osobný asistent',
  'Senior',
  '/avatars/asistent.svg',
  'Pomôžem vám zorientovať sa, nájsť správneho špecialistu a odovzdám vašu požiadavku tímu.',
  array['Orientácia v službách', 'Výber špecialistu', 'Požiadavky na projekty'],
  true,
  'FREE',
  true
)
on conflict (id) do nothing;

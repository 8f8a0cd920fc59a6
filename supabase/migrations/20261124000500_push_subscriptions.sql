-- Web Push (issue 20): a user's devices, the chat each device has open, and the notification queue.
-- The push worker (local: supabase/local/push-worker.ts; hosted: functions/push-dispatch) drains the
-- queue through claim_push_notifications / finish_push_notification (next migration), service role only.
-- Rules R10.x of sync/SPEC.md.

-- ---------------------------------------------------------------- subscriptions
-- One row per browser push subscription (a device). The endpoint is the capability URL the browser's
-- push service handed out: unique, so re-registering updates the row, and an endpoint that shows up
-- for another user (a shared browser signed in as someone else) moves to that user.
create table public.push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  endpoint text not null unique check (char_length(endpoint) <= 2048 and endpoint ~ '^https://[^\s]+$'),
  -- RFC 8291 keys as the browser's PushSubscription.toJSON() gives them (base64url): p256dh is the
  -- 65-byte uncompressed P-256 point (87 chars), auth the 16-byte secret (22 chars).
  p256dh text not null check (p256dh ~ '^[A-Za-z0-9_-]{86,88}={0,2}$'),
  auth text not null check (auth ~ '^[A-Za-z0-9_-]{21,24}={0,2}$'),
  user_agent text check (char_length(user_agent) <= 500),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now()
);
create index push_subscriptions_user_idx on public.push_subscriptions (user_id);

alter table public.push_subscriptions enable row level security;
-- A user sees and deletes only their own devices; writes go through push_subscribe (validation, the
-- per-user cap). Super admins get nothing here: an endpoint is a capability, not account data.
create policy push_subscriptions_select_own on public.push_subscriptions
  for select to authenticated using (user_id = (select auth.uid()));
create policy push_subscriptions_delete_own on public.push_subscriptions
  for delete to authenticated using (user_id = (select auth.uid()));
revoke all on table public.push_subscriptions from public, anon, authenticated;
grant select, delete on table public.push_subscriptions to authenticated;
grant select, insert, update, delete on table public.push_subscriptions to service_role;

-- ---------------------------------------------------------------- what each device shows
-- The chat a signed-in session (a device: its JWT session_id) has open and visible, refreshed by the
-- page every 20 s; the worker counts a row fresher than 30 s as "open and visible" (R10.3).
create table public.push_viewing (
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id text not null,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  updated_at timestamptz not null default now(),
  primary key (user_id, session_id)
);
create index push_viewing_conversation_idx on public.push_viewing (conversation_id, updated_at);
alter table public.push_viewing enable row level security;
create policy push_viewing_select_own on public.push_viewing
  for select to authenticated using (user_id = (select auth.uid()));
revoke all on table public.push_viewing from public, anon, authenticated;
grant select on table public.push_viewing to authenticated;
grant select, insert, update, delete on table public.push_viewing to service_role;

-- ---------------------------------------------------------------- the queue
-- One row per (message, user to notify); the worker fans it out to the user's devices, recording each
-- device in push_deliveries so a retry never notifies a device twice (R10.5).
create table public.push_notifications (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null references public.messages (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  -- pending → running (a claimed lease until due_at) → sent | seen (suppressed) | failed
  status text not null default 'pending' check (status in ('pending', 'running', 'sent', 'seen', 'failed')),
  due_at timestamptz not null,
  attempts int not null default 0,
  locked_by text,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (message_id, user_id)
);
create index push_notifications_due_idx on public.push_notifications (due_at) where status in ('pending', 'running');
create index push_notifications_user_idx on public.push_notifications (user_id);
create index push_notifications_conversation_idx on public.push_notifications (conversation_id);

create table public.push_deliveries (
  notification_id uuid not null references public.push_notifications (id) on delete cascade,
  subscription_id uuid not null references public.push_subscriptions (id) on delete cascade,
  status text not null default 'sending' check (status in ('sending', 'sent', 'gone', 'failed')),
  http_status int,
  updated_at timestamptz not null default now(),
  primary key (notification_id, subscription_id)
);
create index push_deliveries_subscription_idx on public.push_deliveries (subscription_id);

alter table public.push_notifications enable row level security;
alter table public.push_deliveries enable row level security;
revoke all on table public.push_notifications from public, anon, authenticated;
revoke all on table public.push_deliveries from public, anon, authenticated;
grant select, insert, update, delete on table public.push_notifications to service_role;
grant select, insert, update, delete on table public.push_deliveries to service_role;

-- The delay D of R10.2 (seconds) and the freshness of a viewing report (R10.3), one row, changed by
-- the operator (or a test) in SQL. Private: no API role reads it.
create table private.push_settings (
  singleton boolean primary key default true check (singleton),
  delay_seconds numeric not null default 10 check (delay_seconds >= 0 and delay_seconds <= 3600),
  viewing_fresh_seconds numeric not null default 30 check (viewing_fresh_seconds > 0)
);
insert into private.push_settings default values;
revoke all on table private.push_settings from public;

-- ---------------------------------------------------------------- client RPCs
-- Registers (or refreshes) this device's subscription for the caller. Every app open calls it, so
-- last_seen_at says which devices are alive. At most 20 devices per user: the stalest go.
create function public.push_subscribe(p_endpoint text, p_p256dh text, p_auth text, p_user_agent text default null)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
begin
  if v_user is null then
    raise exception 'Sign-in required' using errcode = '42501';
  end if;
  if p_endpoint is null or p_p256dh is null or p_auth is null then
    raise exception 'endpoint, p256dh and auth are required' using errcode = '22023';
  end if;
  -- RFC 8030 section 8: push services are reached over TLS only.
  if char_length(p_endpoint) > 2048 or p_endpoint !~ '^https://[^\s]+$' then
    raise exception 'endpoint must be an https URL' using errcode = '22023';
  end if;
  if p_p256dh !~ '^[A-Za-z0-9_-]{86,88}={0,2}$' then
    raise exception 'p256dh must be a base64url P-256 public key' using errcode = '22023';
  end if;
  if p_auth !~ '^[A-Za-z0-9_-]{21,24}={0,2}$' then
    raise exception 'auth must be a base64url 16-byte secret' using errcode = '22023';
  end if;
  insert into public.push_subscriptions as s (user_id, endpoint, p256dh, auth, user_agent)
  values (v_user, p_endpoint, p_p256dh, p_auth, left(p_user_agent, 500))
  on conflict (endpoint) do update
     set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
         user_agent = excluded.user_agent, last_seen_at = now();
  delete from public.push_subscriptions
   where id in (select id from public.push_subscriptions where user_id = v_user
                 order by last_seen_at desc offset 20);
end $$;

-- Removes this device's subscription, only if it is the caller's.
create function public.push_unsubscribe(p_endpoint text) returns void
language sql volatile security definer set search_path = ''
as $$
  delete from public.push_subscriptions where endpoint = p_endpoint and user_id = auth.uid()
$$;

-- The chat this device (the caller's session) shows now, or null for none. Only a conversation of
-- the caller's OWN account (not an impersonated one: a super admin looking at a user's chat must not
-- silence that user's notifications); anything else is 404 'Conversation not found'.
create function public.push_viewing(p_conversation_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_session text := coalesce(auth.jwt() ->> 'session_id', 'no-session');
begin
  if v_user is null then
    raise exception 'Sign-in required' using errcode = '42501';
  end if;
  if p_conversation_id is null then
    delete from public.push_viewing where user_id = v_user and session_id = v_session;
    return;
  end if;
  if not exists (select 1 from public.conversations c
                   join public.account_users au on au.account_id = c.account_id and au.user_id = v_user
                  where c.id = p_conversation_id) then
    -- PostgREST answers a raised PGRST with the status in detail: 404 (as send_message does).
    raise sqlstate 'PGRST' using
      message = '{"code":"P0002","message":"Conversation not found","details":null,"hint":null}',
      detail = '{"status":404,"headers":{}}';
  end if;
  insert into public.push_viewing (user_id, session_id, conversation_id, updated_at)
  values (v_user, v_session, p_conversation_id, now())
  on conflict (user_id, session_id) do update
     set conversation_id = excluded.conversation_id, updated_at = excluded.updated_at;
end $$;

revoke all on function public.push_subscribe(text, text, text, text) from public, anon;
revoke all on function public.push_unsubscribe(text) from public, anon;
revoke all on function public.push_viewing(uuid) from public, anon;
grant execute on function public.push_subscribe(text, text, text, text) to authenticated;
grant execute on function public.push_unsubscribe(text) to authenticated;
grant execute on function public.push_viewing(uuid) to authenticated;

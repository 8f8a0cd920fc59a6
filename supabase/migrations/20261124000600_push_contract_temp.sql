-- TEMPORARY (push-client's worktree only): the push-server helper's contract — table and RPCs the
-- client calls (push_subscribe, push_unsubscribe, push_viewing) — so the client's journeys can run
-- before that branch is merged. The lead drops this file in favour of push-server's migration.
create table public.push_subscriptions (
  endpoint text primary key,
  user_id uuid not null references auth.users(id) on delete cascade,
  p256dh text not null,
  auth text not null,
  user_agent text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.push_subscriptions enable row level security;
create policy push_subscriptions_own on public.push_subscriptions for select to authenticated
  using (user_id = (select auth.uid()));
grant select on public.push_subscriptions to authenticated;
grant all on public.push_subscriptions to service_role;

create table public.push_viewing (
  user_id uuid primary key references auth.users(id) on delete cascade,
  conversation_id uuid,
  seen_at timestamptz not null default now()
);
alter table public.push_viewing enable row level security;
grant all on public.push_viewing to service_role;

create function public.push_subscribe(p_endpoint text, p_p256dh text, p_auth text, p_user_agent text)
returns void language plpgsql volatile security definer set search_path = ''
as $$
begin
  if auth.uid() is null then raise exception 'Not signed in' using errcode = '42501'; end if;
  if p_endpoint is null or p_endpoint !~ '^https?://' then
    raise exception 'endpoint must be an http(s) URL' using errcode = '22023';
  end if;
  insert into public.push_subscriptions (endpoint, user_id, p256dh, auth, user_agent)
  values (p_endpoint, auth.uid(), p_p256dh, p_auth, p_user_agent)
  on conflict (endpoint) do update
    set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
        user_agent = excluded.user_agent, updated_at = now();
end $$;

create function public.push_unsubscribe(p_endpoint text)
returns void language plpgsql volatile security definer set search_path = ''
as $$
begin
  if auth.uid() is null then raise exception 'Not signed in' using errcode = '42501'; end if;
  delete from public.push_subscriptions where endpoint = p_endpoint and user_id = auth.uid();
end $$;

create function public.push_viewing(p_conversation_id uuid)
returns void language plpgsql volatile security definer set search_path = ''
as $$
begin
  if auth.uid() is null then raise exception 'Not signed in' using errcode = '42501'; end if;
  insert into public.push_viewing (user_id, conversation_id, seen_at)
  values (auth.uid(), p_conversation_id, now())
  on conflict (user_id) do update set conversation_id = excluded.conversation_id, seen_at = now();
end $$;

revoke execute on function public.push_subscribe(text, text, text, text) from public, anon;
revoke execute on function public.push_unsubscribe(text) from public, anon;
revoke execute on function public.push_viewing(uuid) from public, anon;
grant execute on function public.push_subscribe(text, text, text, text) to authenticated;
grant execute on function public.push_unsubscribe(text) to authenticated;
grant execute on function public.push_viewing(uuid) to authenticated;

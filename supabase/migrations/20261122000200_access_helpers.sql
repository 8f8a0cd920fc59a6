-- Who is calling, as RLS policies and RPCs ask it. SECURITY DEFINER so that policies on app_users,
-- account_users and impersonations do not recurse into themselves; each pins search_path to ''
-- and reads only the caller's own rows (auth.uid()).

-- True for a signed-in user with the super_admin role in app_users.
create function public.is_super_admin() returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.app_users u where u.user_id = (select auth.uid()) and u.role = 'super_admin'
  )
$$;

-- The account the caller acts for: a super admin's impersonated account while an impersonation is
-- active (impersonations row, and still a super admin), else the caller's own account. Null for
-- anon, service_role and users without an account.
create function public.current_account_id() returns uuid
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    (select i.account_id
       from public.impersonations i
       join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
      where i.admin_user_id = (select auth.uid())),
    (select au.account_id from public.account_users au where au.user_id = (select auth.uid()))
  )
$$;

-- Membership as every account-scoped policy means it: the caller acts inside p_account_id (their own
-- account, or the impersonated one for a super admin). Policies inline it as
-- `account_id = (select public.current_account_id())` so it is evaluated once per statement.
create function public.is_account_member(p_account_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_account_id is not null and p_account_id = public.current_account_id()
$$;

-- True when the statement that fired a trigger came straight from an API client (PostgREST sets the
-- role to anon or authenticated). Inside SECURITY DEFINER server code current_user is the function
-- owner, and service_role is trusted server code, so both count as "server". Must stay SECURITY
-- INVOKER and be called from SECURITY INVOKER trigger functions, or it would always see the owner.
create function private.caller_is_client() returns boolean
language sql stable security invoker set search_path = ''
as $$
  select current_user in ('authenticated', 'anon')
$$;

-- Refuses callers that are neither a super admin nor server code holding the service-role key.
create function private.require_admin() returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if coalesce(auth.role(), '') = 'service_role' or public.is_super_admin() then
    return;
  end if;
  raise exception 'Super admin role required' using errcode = '42501';
end $$;

-- Locks a conversation row for the rest of the transaction and returns it (null fields if absent).
-- Lock order: message inserts lock their conversation BEFORE the account's change counter, the same
-- order a conversation UPDATE takes (row lock first, then the counter in its trigger), so the two
-- never deadlock. Invariant kept by every write path (send_message, the AI worker, start_conversation):
-- a transaction writes messages into one conversation of an account; code that must write into two
-- should lock them in id order first, or accept that PostgreSQL may abort it as a deadlock.
create function private.lock_conversation(p_conversation_id uuid) returns public.conversations
language sql volatile security definer set search_path = ''
as $$
  select c.* from public.conversations c where c.id = p_conversation_id for no key update
$$;

-- The specialists an account may use: DEFAULT mode = its plan's specialists, CUSTOM = its explicit
-- assignments (admin-area.md section 4). The assistant is not listed; start_conversation admits it.
create function private.active_specialist_ids(p_account_id uuid) returns setof uuid
language sql stable security definer set search_path = ''
as $$
  select ps.specialist_id
    from public.accounts a
    join public.plan_specialists ps on ps.plan_id = a.plan_id
   where a.id = p_account_id and a.specialists_mode = 'DEFAULT'
  union
  select s.specialist_id
    from public.accounts a
    join public.account_specialists s on s.account_id = a.id
   where a.id = p_account_id and a.specialists_mode = 'CUSTOM'
$$;

revoke all on function public.is_super_admin() from public, anon;
revoke all on function public.current_account_id() from public, anon;
revoke all on function public.is_account_member(uuid) from public, anon;
grant execute on function public.is_super_admin() to authenticated, service_role;
grant execute on function public.current_account_id() to authenticated, service_role;
grant execute on function public.is_account_member(uuid) to authenticated, service_role;

revoke all on function private.caller_is_client() from public;
revoke all on function private.require_admin() from public;
revoke all on function private.lock_conversation(uuid) from public;
revoke all on function private.active_specialist_ids(uuid) from public;
-- Invoker triggers running for API clients call these; the private schema is not exposed over HTTP.
grant execute on function private.caller_is_client() to authenticated, service_role;
grant execute on function private.require_admin() to authenticated, service_role;
grant execute on function private.lock_conversation(uuid) to authenticated, service_role;
grant execute on function private.active_specialist_ids(uuid) to authenticated, service_role;

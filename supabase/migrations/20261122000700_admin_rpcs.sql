-- Super-admin RPCs (admin-area.md sections 4, 6, 7). Each is SECURITY DEFINER, checks the caller
-- itself (super admin, or server code with the service-role key where noted), locks the account row
-- first so two admins' changes to one account serialise, does the whole rule in one transaction
-- (no client sequence can leave an account half-changed), and records itself in audit_log.

create function private.audit(p_action text, p_account_id uuid, p_details jsonb) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.audit_log (actor_user_id, account_id, action, details)
  values ((select auth.uid()), p_account_id, p_action, coalesce(p_details, '{}'::jsonb))
$$;

-- The account's state after an admin change, so the admin screen can show it without re-reading.
create function private.account_state(p_account_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'id', a.id, 'name', a.name, 'plan', a.plan, 'plan_id', a.plan_id,
    'specialists_mode', a.specialists_mode,
    'active_specialist_ids', coalesce((select jsonb_agg(x.id order by x.id)
                                         from private.active_specialist_ids(a.id) x(id)), '[]'::jsonb),
    'assigned_specialist_ids', coalesce((select jsonb_agg(s.specialist_id order by s.specialist_id)
                                           from public.account_specialists s where s.account_id = a.id), '[]'::jsonb))
  from public.accounts a where a.id = p_account_id
$$;

create function private.lock_account(p_account_id uuid) returns public.accounts
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
begin
  select * into v from public.accounts where id = p_account_id for no key update;
  if v.id is null then
    raise exception 'Account not found' using errcode = 'P0002';
  end if;
  return v;
end $$;

-- ---------------------------------------------------------------- impersonation
-- A super admin starts acting inside p_account_id: from now on current_account_id() answers that
-- account for them, in RLS and in every RPC, until stop_impersonation(). Returns the account.
create function public.start_impersonation(p_account_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
begin
  if not public.is_super_admin() then
    raise exception 'Only super admins can impersonate' using errcode = '42501';
  end if;
  select * into v from public.accounts where id = p_account_id;
  if v.id is null then
    raise exception 'Account not found' using errcode = 'P0002';
  end if;
  insert into public.impersonations (admin_user_id, account_id)
  values (auth.uid(), p_account_id)
  on conflict (admin_user_id) do update set account_id = excluded.account_id, started_at = now();
  perform private.audit('impersonation.start', p_account_id, jsonb_build_object('account_name', v.name));
  return jsonb_build_object('id', v.id, 'name', v.name, 'plan', v.plan, 'specialists_mode', v.specialists_mode);
end $$;

create function public.stop_impersonation() returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_account uuid;
begin
  if not public.is_super_admin() then
    raise exception 'Only super admins can impersonate' using errcode = '42501';
  end if;
  delete from public.impersonations where admin_user_id = auth.uid() returning account_id into v_account;
  if v_account is not null then
    perform private.audit('impersonation.stop', v_account, '{}'::jsonb);
  end if;
end $$;

-- ---------------------------------------------------------------- specialists mode and assignment
-- The account's active specialists follow its plan again: DEFAULT mode, explicit assignments dropped
-- (by the accounts trigger). Called by the plan change; returns the account state.
create function private.apply_plan_specialists(p_account_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.lock_account(p_account_id);
  update public.accounts set specialists_mode = 'DEFAULT'
   where id = p_account_id and specialists_mode <> 'DEFAULT';
  delete from public.account_specialists where account_id = p_account_id;
  return private.account_state(p_account_id);
end $$;

create function public.assign_specialists_for_plan(p_account_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v jsonb;
begin
  perform private.require_admin();
  v := private.apply_plan_specialists(p_account_id);
  perform private.audit('admin.assign_specialists_for_plan', p_account_id, v);
  return v;
end $$;

-- Switch on DEFAULT: mode updated, explicit assignments deleted. Switch to CUSTOM: only the mode.
-- Already in the target mode: nothing changes.
create function public.admin_set_specialists_mode(p_account_id uuid, p_mode text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
begin
  perform private.require_admin();
  if p_mode is null or p_mode not in ('DEFAULT', 'CUSTOM') then
    raise exception 'invalid specialists mode: %', p_mode using errcode = '22023';
  end if;
  v := private.lock_account(p_account_id);
  if v.specialists_mode = p_mode then
    return private.account_state(p_account_id);
  end if;
  update public.accounts set specialists_mode = p_mode where id = p_account_id;
  perform private.audit('admin.set_specialists_mode', p_account_id,
                        jsonb_build_object('from', v.specialists_mode, 'to', p_mode));
  return private.account_state(p_account_id);
end $$;

-- Assign in DEFAULT: mode becomes CUSTOM, the default-active specialists are copied as explicit
-- assignments, then the new one is added. Assign in CUSTOM: the link is added.
create function public.admin_assign_specialist(p_account_id uuid, p_specialist_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
begin
  perform private.require_admin();
  v := private.lock_account(p_account_id);
  if not exists (select 1 from public.specialists s where s.id = p_specialist_id) then
    raise exception 'Specialist not found' using errcode = 'P0002';
  end if;
  if v.specialists_mode = 'DEFAULT' then
    update public.accounts set specialists_mode = 'CUSTOM' where id = p_account_id;
    insert into public.account_specialists (account_id, specialist_id)
    select p_account_id, ps.specialist_id from public.plan_specialists ps where ps.plan_id = v.plan_id
    on conflict do nothing;
  end if;
  insert into public.account_specialists (account_id, specialist_id)
  values (p_account_id, p_specialist_id)
  on conflict do nothing;
  perform private.audit('admin.assign_specialist', p_account_id,
                        jsonb_build_object('specialist_id', p_specialist_id, 'mode_before', v.specialists_mode));
  return private.account_state(p_account_id);
end $$;

-- Unassign a specialist active only by default (DEFAULT mode, in the plan): mode becomes CUSTOM and
-- all the other default specialists are stored explicitly, so only the removed one drops out.
-- Unassign otherwise: its explicit link is deleted.
create function public.admin_unassign_specialist(p_account_id uuid, p_specialist_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
begin
  perform private.require_admin();
  v := private.lock_account(p_account_id);
  if v.specialists_mode = 'DEFAULT'
     and exists (select 1 from public.plan_specialists ps
                  where ps.plan_id = v.plan_id and ps.specialist_id = p_specialist_id) then
    update public.accounts set specialists_mode = 'CUSTOM' where id = p_account_id;
    insert into public.account_specialists (account_id, specialist_id)
    select p_account_id, ps.specialist_id from public.plan_specialists ps
     where ps.plan_id = v.plan_id and ps.specialist_id <> p_specialist_id
    on conflict do nothing;
  end if;
  delete from public.account_specialists where account_id = p_account_id and specialist_id = p_specialist_id;
  perform private.audit('admin.unassign_specialist', p_account_id,
                        jsonb_build_object('specialist_id', p_specialist_id, 'mode_before', v.specialists_mode));
  return private.account_state(p_account_id);
end $$;

-- ---------------------------------------------------------------- plan change
-- Only when the plan differs: plan and plan_id updated, then the plan's specialists assigned
-- (assign_specialists_for_plan), all in this transaction. Unknown codes raise 'invalid plan code'.
create function public.admin_change_plan(p_account_id uuid, p_plan_code text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
  v_plan public.plans;
begin
  perform private.require_admin();
  select * into v_plan from public.plans p where p.code = p_plan_code;
  if v_plan.id is null then
    raise exception 'invalid plan code: %', p_plan_code using errcode = '22023';
  end if;
  v := private.lock_account(p_account_id);
  if v.plan_id = v_plan.id then
    return private.account_state(p_account_id);
  end if;
  update public.accounts set plan = v_plan.code, plan_id = v_plan.id where id = p_account_id;
  perform private.apply_plan_specialists(p_account_id);
  perform private.audit('admin.change_plan', p_account_id,
                        jsonb_build_object('from', v.plan, 'to', v_plan.code));
  return private.account_state(p_account_id);
end $$;

-- ---------------------------------------------------------------- people
create function public.get_super_admin_emails() returns table (email text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select u.email::text from public.app_users a join auth.users u on u.id = a.user_id
     where a.role = 'super_admin' and u.email is not null
     order by u.email;
end $$;

-- admin_delete_user(p_email): deletes the user and every account they own with all its data
-- (conversations, messages, cursors, assignments, jobs, tombstones). Refuses super-admin users.
-- For the delete-user function (service role) and super admins. Returns what was deleted.
create function public.admin_delete_user(p_email text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid;
  v_accounts uuid[];
begin
  perform private.require_admin();
  select u.id into v_user from auth.users u where lower(u.email) = lower(btrim(p_email));
  if v_user is null then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  if exists (select 1 from public.app_users a where a.user_id = v_user and a.role = 'super_admin') then
    raise exception 'Super admin accounts cannot be deleted' using errcode = '42501';
  end if;
  select coalesce(array_agg(au.account_id), '{}') into v_accounts
    from public.account_users au where au.user_id = v_user and au.role = 'owner';
  perform private.delete_accounts(v_accounts);
  delete from auth.users where id = v_user; -- identities, sessions, links go by cascade
  perform private.audit('admin.delete_user', null,
                        jsonb_build_object('email', lower(btrim(p_email)), 'user_id', v_user, 'account_ids', to_jsonb(v_accounts)));
  return jsonb_build_object('user_id', v_user, 'email', lower(btrim(p_email)), 'account_ids', to_jsonb(v_accounts));
end $$;

-- Deletes accounts with everything that hangs off them (foreign keys cascade) and their tombstones.
create function private.delete_accounts(p_account_ids uuid[]) returns void
language sql volatile security definer set search_path = ''
as $$
  delete from public.accounts where id = any (p_account_ids);
  delete from public.deleted_rows where account_id = any (p_account_ids);
$$;

-- ---------------------------------------------------------------- accounts list
-- Super admins (and server code with the service-role key) see every account; everybody else sees
-- no rows (security_invoker: the caller's RLS applies to accounts, and the filter below makes the
-- admin-only intent explicit). Read-only.
create view public.v_admin_accounts with (security_invoker = true) as
select a.id,
       a.name,
       a.owner_email,
       a.plan,
       a.specialists_mode,
       a.created_at,
       (case when a.specialists_mode = 'CUSTOM'
             then (select count(*) from public.account_specialists s where s.account_id = a.id)
             else (select count(*) from public.plan_specialists ps where ps.plan_id = a.plan_id)
        end)::int as specialists_count,
       coalesce(a.last_activity_at, a.created_at) as last_activity,
       exists (select 1 from public.account_users au
                 join public.app_users su on su.user_id = au.user_id and su.role = 'super_admin'
                where au.account_id = a.id and au.role = 'owner') as owner_is_super_admin
  from public.accounts a
 where (select public.is_super_admin()) or (select auth.role()) = 'service_role';

revoke all on public.v_admin_accounts from anon, public;
revoke insert, update, delete, truncate, references, trigger on public.v_admin_accounts from authenticated, service_role;
grant select on public.v_admin_accounts to authenticated, service_role;

revoke all on function public.start_impersonation(uuid) from public, anon;
revoke all on function public.stop_impersonation() from public, anon;
revoke all on function public.assign_specialists_for_plan(uuid) from public, anon;
revoke all on function public.admin_set_specialists_mode(uuid, text) from public, anon;
revoke all on function public.admin_assign_specialist(uuid, uuid) from public, anon;
revoke all on function public.admin_unassign_specialist(uuid, uuid) from public, anon;
revoke all on function public.admin_change_plan(uuid, text) from public, anon;
revoke all on function public.get_super_admin_emails() from public, anon;
revoke all on function public.admin_delete_user(text) from public, anon;
grant execute on function public.start_impersonation(uuid) to authenticated;
grant execute on function public.stop_impersonation() to authenticated;
grant execute on function public.assign_specialists_for_plan(uuid) to authenticated, service_role;
grant execute on function public.admin_set_specialists_mode(uuid, text) to authenticated, service_role;
grant execute on function public.admin_assign_specialist(uuid, uuid) to authenticated, service_role;
grant execute on function public.admin_unassign_specialist(uuid, uuid) to authenticated, service_role;
grant execute on function public.admin_change_plan(uuid, text) to authenticated, service_role;
grant execute on function public.get_super_admin_emails() to authenticated, service_role;
grant execute on function public.admin_delete_user(text) to authenticated, service_role;
revoke all on function private.audit(text, uuid, jsonb) from public;
revoke all on function private.account_state(uuid) from public;
revoke all on function private.lock_account(uuid) from public;
revoke all on function private.apply_plan_specialists(uuid) from public;
revoke all on function private.delete_accounts(uuid[]) from public;

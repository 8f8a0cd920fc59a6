-- admin_assign_specialist and admin_unassign_specialist both turned a DEFAULT account into CUSTOM by
-- copying its plan's default specialists as explicit assignments; that step now lives in one private
-- helper. Behaviour is unchanged (tests/db/admin-rules.test.ts and the access matrix cover it).

-- Switches an account (already locked by the caller, passed as its locked row) from DEFAULT to CUSTOM
-- and stores its plan's specialists as explicit assignments, except p_except (null: all of them), so
-- the set of active specialists is the same before and after. No-op for an account already CUSTOM.
create function private.make_specialists_custom(p_account public.accounts, p_except uuid default null) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if p_account.specialists_mode <> 'DEFAULT' then
    return;
  end if;
  update public.accounts set specialists_mode = 'CUSTOM' where id = p_account.id;
  insert into public.account_specialists (account_id, specialist_id)
  select p_account.id, ps.specialist_id from public.plan_specialists ps
   where ps.plan_id = p_account.plan_id and ps.specialist_id is distinct from p_except
  on conflict do nothing;
end $$;

revoke all on function private.make_specialists_custom(public.accounts, uuid) from public;

-- Assign in DEFAULT: mode becomes CUSTOM, the default-active specialists are copied as explicit
-- assignments, then the new one is added. Assign in CUSTOM: the link is added.
create or replace function public.admin_assign_specialist(p_account_id uuid, p_specialist_id uuid) returns jsonb
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
  perform private.make_specialists_custom(v);
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
create or replace function public.admin_unassign_specialist(p_account_id uuid, p_specialist_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v public.accounts;
begin
  perform private.require_admin();
  v := private.lock_account(p_account_id);
  if exists (select 1 from public.plan_specialists ps
              where ps.plan_id = v.plan_id and ps.specialist_id = p_specialist_id) then
    perform private.make_specialists_custom(v, p_specialist_id);
  end if;
  delete from public.account_specialists where account_id = p_account_id and specialist_id = p_specialist_id;
  perform private.audit('admin.unassign_specialist', p_account_id,
                        jsonb_build_object('specialist_id', p_specialist_id, 'mode_before', v.specialists_mode));
  return private.account_state(p_account_id);
end $$;

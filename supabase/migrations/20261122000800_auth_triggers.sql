-- Accounts follow users: a new auth.users row gets its account (admin-area.md section 4,
-- auto-created account), and a deleted user takes the accounts they own with them, so neither a
-- signup nor the auth service's admin delete leaves an account half there.

create function private.tg_auth_user_created() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.create_account_for_user(NEW.id, NEW.email);
  return null;
end $$;

create function private.tg_auth_user_deleting() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- BEFORE DELETE: the owner links still exist here (the cascade removes them afterwards).
  perform private.delete_accounts(array(
    select au.account_id from public.account_users au where au.user_id = OLD.id and au.role = 'owner'));
  return OLD;
end $$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.tg_auth_user_created();
create trigger on_auth_user_deleting before delete on auth.users
  for each row execute function private.tg_auth_user_deleting();

revoke all on function private.tg_auth_user_created() from public;
revoke all on function private.tg_auth_user_deleting() from public;

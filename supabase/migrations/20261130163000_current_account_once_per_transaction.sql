-- The account a caller acts for, looked up once per transaction (issue 41 part 3: send_message at
-- >= 0.8x its floor, row 10a⁗; the rounds before: 20261130140000, 20261130150000).
--
-- Every account-scoped policy already reads it as an initPlan, `account_id = (select
-- public.current_account_id())`, once per statement (20261122000500), as Supabase's RLS performance
-- advice has it. A send still asked it four times, once in each statement or check that needs it
-- (send_message's visibility test, messages' t10_guard 404, the INSERT's WITH CHECK, RETURNING's
-- SELECT policy), and each time it read impersonations joined to app_users and then account_users
-- with the caller's id parsed again from the claims' JSON: ~80 k instructions a call (callgrind,
-- bench/send-instructions.sh; bench/RESULTS.md 2026-11-29 session 30), 0.32 M of a send's 3.45 M with
-- all four replaced by a constant. With this: 3.32 M a send (-3.8 %); with claims the size of a hosted
-- project's access token (570 bytes, which auth.uid() parses at every call) 3.92 -> 3.63 M (-7.4 %).
--
-- Now the first call of a transaction looks the account up and keeps it in two transaction-local
-- settings, keyed by the claims it was computed for; a later call with the same claims returns it
-- without reading a table. Why this is as safe as the look-up it replaces:
--   - The key is the raw text of the two settings auth.uid() reads (request.jwt.claim.sub and
--     request.jwt.claims). Any change of claims in the transaction (the local realtime and hosted
--     Realtime act as one subscriber after another inside one transaction) misses and looks up again.
--     Whoever could set poradna.acting_* could set request.jwt.claims itself, which every policy
--     already trusts: API clients can set neither (PostgREST sets the claims; no exposed function
--     sets a configuration parameter from its arguments).
--   - Both settings are set with is_local = true: they end with the transaction (commit or
--     rollback), and a subtransaction that rolls back takes its own setting back with its writes.
--     A pooled connection never carries them into another request.
--   - Every write to the three tables the answer depends on (impersonations, app_users' role,
--     account_users), by any role, including cascades from auth.users and TRUNCATE, clears the key
--     by a statement-level trigger, so the next statement of the same transaction looks up again:
--     start_impersonation followed by a read in one transaction sees the impersonated account, as
--     before.
--   - The one difference: a change that ANOTHER transaction commits while this one runs is seen from
--     this transaction's next transaction on, not from its next statement (READ COMMITTED let each
--     statement of a PL/pgSQL function see it). A PostgREST request is one transaction of a few
--     milliseconds; a revocation that commits during it orders after it, as it would had it committed
--     a moment later. The JWT's own claims (the role above all) are fixed per request in the same way.
-- Stays PL/pgSQL, STABLE, SECURITY DEFINER with search_path = '' (Security Advisor lint 0011), and
-- PARALLEL UNSAFE by default (set_config is refused in a parallel worker; such plans are never made).

create or replace function public.current_account_id() returns uuid
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_key text := coalesce(current_setting('request.jwt.claim.sub', true), '') || '|'
                || coalesce(current_setting('request.jwt.claims', true), '');
  v_uid uuid;
  v_account uuid;
begin
  if current_setting('poradna.acting_key', true) = v_key then
    return nullif(current_setting('poradna.acting_account', true), '')::uuid;
  end if;
  v_uid := auth.uid();
  if v_uid is null then
    return null;
  end if;
  -- impersonations is keyed by admin_user_id and account_users.user_id is unique: at most one row each.
  select i.account_id into v_account
    from public.impersonations i
    join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
   where i.admin_user_id = v_uid;
  if v_account is null then
    select au.account_id into v_account from public.account_users au where au.user_id = v_uid;
  end if;
  perform set_config('poradna.acting_account', coalesce(v_account::text, ''), true),
          set_config('poradna.acting_key', v_key, true);
  return v_account;
end $$;

-- A write to what current_account_id reads: the next call looks up again.
create function private.tg_forget_acting_account() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  perform set_config('poradna.acting_key', '', true);
  return null;
end $$;
revoke all on function private.tg_forget_acting_account() from public;

create trigger t99_forget_acting_account after insert or update or delete or truncate on public.impersonations
  for each statement execute function private.tg_forget_acting_account();
create trigger t99_forget_acting_account after insert or update or delete or truncate on public.app_users
  for each statement execute function private.tg_forget_acting_account();
create trigger t99_forget_acting_account after insert or update or delete or truncate on public.account_users
  for each statement execute function private.tg_forget_acting_account();

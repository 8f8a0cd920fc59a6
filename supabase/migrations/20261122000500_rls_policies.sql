-- Row-level security on every table. Bootstrap (like Supabase) grants anon/authenticated all table
-- privileges by default, so these policies are what protects the data.
--   * anon reads and writes nothing (no policy, and its table privileges are revoked).
--   * A member reads their account's rows and writes only: user messages (guarded by triggers),
--     archived_at of their conversations, and their own read cursors.
--   * A super admin additionally reads all accounts, links, assignments, audit and integration data,
--     changes accounts and assignments, manages chatwoot_config, and acts inside an impersonated
--     account (current_account_id()) exactly like a member of it.
--   * service_role bypasses RLS (server code).
-- Account checks are written `account_id = (select public.current_account_id())`: the sub-select
-- is an InitPlan, evaluated once per statement instead of once per row (same for is_super_admin()).

alter table public.plans enable row level security;
alter table public.plan_specialists enable row level security;
alter table public.specialists enable row level security;
alter table public.accounts enable row level security;
alter table public.account_users enable row level security;
alter table public.app_users enable row level security;
alter table public.account_specialists enable row level security;
alter table public.conversations enable row level security;
alter table public.messages enable row level security;
alter table public.read_cursors enable row level security;
alter table public.deleted_rows enable row level security;
alter table public.impersonations enable row level security;
alter table public.audit_log enable row level security;
alter table public.chatwoot_config enable row level security;
alter table public.integration_events enable row level security;
alter table public.ai_reply_jobs enable row level security;

-- ---------------------------------------------------------------- catalogue: readable when signed in
create policy plans_read on public.plans for select to authenticated using (true);
create policy plan_specialists_read on public.plan_specialists for select to authenticated using (true);
create policy specialists_read on public.specialists for select to authenticated using (true);

-- ---------------------------------------------------------------- accounts and people
create policy accounts_read on public.accounts for select to authenticated
  using (id = (select public.current_account_id()) or (select public.is_super_admin()));
create policy accounts_admin_update on public.accounts for update to authenticated
  using ((select public.is_super_admin())) with check ((select public.is_super_admin()));

create policy account_users_read on public.account_users for select to authenticated
  using (user_id = (select auth.uid())
         or account_id = (select public.current_account_id())
         or (select public.is_super_admin()));

create policy app_users_read on public.app_users for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_super_admin()));

create policy account_specialists_read on public.account_specialists for select to authenticated
  using (account_id = (select public.current_account_id()) or (select public.is_super_admin()));
create policy account_specialists_admin_insert on public.account_specialists for insert to authenticated
  with check ((select public.is_super_admin()));
create policy account_specialists_admin_update on public.account_specialists for update to authenticated
  using ((select public.is_super_admin())) with check ((select public.is_super_admin()));
create policy account_specialists_admin_delete on public.account_specialists for delete to authenticated
  using ((select public.is_super_admin()));

-- ---------------------------------------------------------------- chat data of the account acted for
create policy conversations_read on public.conversations for select to authenticated
  using (account_id = (select public.current_account_id()));
-- Archive/unarchive; the guard trigger refuses changes to any other column.
create policy conversations_update on public.conversations for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));

create policy messages_read on public.messages for select to authenticated
  using (account_id = (select public.current_account_id()));
-- account_id is set by the guard trigger before this check runs, from the conversation.
create policy messages_insert on public.messages for insert to authenticated
  with check (account_id = (select public.current_account_id())
              and direction = 'user'
              and sender_user_id = (select auth.uid()));
-- Exists only so that a repeated upsert can resolve ON CONFLICT DO UPDATE (keeping the stored row);
-- the guard trigger refuses every other client update.
create policy messages_update on public.messages for update to authenticated
  using (account_id = (select public.current_account_id()))
  with check (account_id = (select public.current_account_id()));

create policy read_cursors_read on public.read_cursors for select to authenticated
  using (user_id = (select auth.uid()) and account_id = (select public.current_account_id()));
create policy read_cursors_insert on public.read_cursors for insert to authenticated
  with check (user_id = (select auth.uid()) and account_id = (select public.current_account_id()));
create policy read_cursors_update on public.read_cursors for update to authenticated
  using (user_id = (select auth.uid()) and account_id = (select public.current_account_id()))
  with check (user_id = (select auth.uid()) and account_id = (select public.current_account_id()));

create policy deleted_rows_read on public.deleted_rows for select to authenticated
  using (account_id = (select public.current_account_id()));

-- ---------------------------------------------------------------- admin and integration
create policy impersonations_read_own on public.impersonations for select to authenticated
  using (admin_user_id = (select auth.uid()) and (select public.is_super_admin()));

create policy audit_log_admin_read on public.audit_log for select to authenticated
  using ((select public.is_super_admin()));

create policy chatwoot_config_admin on public.chatwoot_config for all to authenticated
  using ((select public.is_super_admin())) with check ((select public.is_super_admin()));

create policy integration_events_admin_read on public.integration_events for select to authenticated
  using ((select public.is_super_admin()));

-- ai_reply_jobs: no policy at all; only service_role (RLS bypass) and definer functions touch it.

-- ---------------------------------------------------------------- privileges behind the policies
-- Defence in depth: what no policy allows is also not granted. TRUNCATE would bypass RLS.
revoke all on public.plans, public.plan_specialists, public.specialists, public.accounts,
  public.account_users, public.app_users, public.account_specialists, public.conversations,
  public.messages, public.read_cursors, public.deleted_rows, public.impersonations, public.audit_log,
  public.chatwoot_config, public.integration_events, public.ai_reply_jobs
  from anon;
revoke truncate, references, trigger on public.plans, public.plan_specialists, public.specialists,
  public.accounts, public.account_users, public.app_users, public.account_specialists,
  public.conversations, public.messages, public.read_cursors, public.deleted_rows,
  public.impersonations, public.audit_log, public.chatwoot_config, public.integration_events,
  public.ai_reply_jobs
  from authenticated;
revoke insert, update, delete on public.plans, public.plan_specialists, public.specialists,
  public.account_users, public.app_users, public.deleted_rows, public.impersonations,
  public.audit_log, public.integration_events
  from authenticated;
revoke insert, delete on public.accounts from authenticated;
revoke insert, delete on public.conversations from authenticated;
revoke delete on public.messages, public.read_cursors from authenticated;
revoke all on public.ai_reply_jobs from authenticated;
grant all on public.plans, public.plan_specialists, public.specialists, public.accounts,
  public.account_users, public.app_users, public.account_specialists, public.conversations,
  public.messages, public.read_cursors, public.deleted_rows, public.impersonations, public.audit_log,
  public.chatwoot_config, public.integration_events, public.ai_reply_jobs
  to service_role;

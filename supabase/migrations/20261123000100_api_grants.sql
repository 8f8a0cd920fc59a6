-- Exactly what each API role may do, table by table and function by function, stated here instead of
-- inherited. Hosted projects no longer grant new `public` objects to anon, authenticated or
-- service_role (the SQL the dashboard runs: supabase/cli apps/cli-go/internal/db/start/start.go,
-- RevokeDefaultDataApiPrivilegesSql; default for new projects since 2026-05-30, all projects since
-- 2026-10-30), and the local bootstrap grants nothing either. Each table first loses whatever an
-- older database inherited (revoke all), so every database ends in the same state whatever it had.
-- RLS policies (20261122000500) still decide which rows; these grants decide which operations.
-- Expectations: tests/db/access-matrix.ts; every app call: tests/db/strictness.test.ts.
--
-- anon: nothing in public (it signs in through the auth service, which has its own connection).
-- authenticated: what the app does directly through the Data API, below; everything else via RPCs.
-- service_role: functions and workers read and write every table (it bypasses RLS); no TRUNCATE,
-- REFERENCES or TRIGGER, which nothing uses.

revoke all on public.plans, public.plan_specialists, public.specialists, public.accounts,
  public.account_users, public.app_users, public.account_specialists, public.conversations,
  public.messages, public.read_cursors, public.deleted_rows, public.impersonations, public.audit_log,
  public.chatwoot_config, public.integration_events, public.ai_reply_jobs, public.chatwoot_contacts,
  public.v_admin_accounts
  from anon, authenticated, service_role;

-- ---------------------------------------------------------------- authenticated
-- The catalogue (specialist pickers, plan names).
grant select on public.plans, public.plan_specialists, public.specialists to authenticated;
-- Own account (name, plan); super admins change plan, mode and name (policy accounts_admin_update).
grant select, update on public.accounts to authenticated;
grant select on public.account_users, public.app_users to authenticated;
-- Super admins manage explicit specialist assignments directly as well as through the RPCs.
grant select, insert, update, delete on public.account_specialists to authenticated;
-- Members archive conversations (only archived_at may change: tg_conversations_guard).
grant select, update on public.conversations to authenticated;
-- Members insert their own messages (the outbox upserts with on_conflict); updates are refused by
-- policy and trigger, but PostgREST's upsert needs UPDATE to be granted to run ON CONFLICT.
grant select, insert, update on public.messages to authenticated;
grant select, insert, update on public.read_cursors to authenticated;
grant select on public.deleted_rows, public.impersonations, public.audit_log,
  public.integration_events to authenticated;
grant select, insert, update, delete on public.chatwoot_config to authenticated;
-- Members read their account's Chatwoot contact tokens (chatwoot-pubsub-token, RoomChannel).
grant select on public.chatwoot_contacts to authenticated;
grant select on public.v_admin_accounts to authenticated;

-- ---------------------------------------------------------------- service_role
grant select, insert, update, delete on public.plans, public.plan_specialists, public.specialists,
  public.accounts, public.account_users, public.app_users, public.account_specialists,
  public.conversations, public.messages, public.read_cursors, public.deleted_rows,
  public.impersonations, public.audit_log, public.chatwoot_config, public.integration_events,
  public.ai_reply_jobs, public.chatwoot_contacts
  to service_role;
grant select on public.v_admin_accounts to service_role;

-- ---------------------------------------------------------------- functions
-- PostgreSQL grants EXECUTE to PUBLIC on every new function; each function below loses it, and gets
-- exactly the roles that call it. anon calls none.
revoke all on function
  public.is_super_admin(), public.current_account_id(), public.is_account_member(uuid),
  public.sync_pull(bigint, int), public.send_message(uuid, text, uuid, jsonb), public.mark_read(uuid, uuid),
  public.get_unread_counts(), public.get_active_specialists(uuid), public.start_conversation(uuid, text, text),
  public.ensure_first_conversation(), public.ensure_account(),
  public.start_impersonation(uuid), public.stop_impersonation(), public.assign_specialists_for_plan(uuid),
  public.admin_set_specialists_mode(uuid, text), public.admin_assign_specialist(uuid, uuid),
  public.admin_unassign_specialist(uuid, uuid), public.admin_change_plan(uuid, text),
  public.get_super_admin_emails(), public.admin_delete_user(text), public.admin_open_conversation(uuid, uuid),
  public.admin_schema_report(),
  public.claim_ai_reply_job(text), public.complete_ai_reply_job(uuid, text),
  public.fail_ai_reply_job(uuid, text, int, text)
  from public, anon, authenticated, service_role;

-- RLS helpers: policies evaluate them as the caller.
grant execute on function public.is_super_admin(), public.current_account_id(), public.is_account_member(uuid)
  to authenticated, service_role;
-- The member's app (sync engine and UI).
grant execute on function public.sync_pull(bigint, int), public.send_message(uuid, text, uuid, jsonb),
  public.mark_read(uuid, uuid), public.get_unread_counts(), public.get_active_specialists(uuid),
  public.start_conversation(uuid, text, text), public.ensure_first_conversation(), public.ensure_account()
  to authenticated, service_role;
-- Impersonation is a signed-in super admin's act; server code has no user to impersonate with.
grant execute on function public.start_impersonation(uuid), public.stop_impersonation() to authenticated;
-- Admin RPCs: each checks private.require_admin() (super admin or service role).
grant execute on function public.assign_specialists_for_plan(uuid), public.admin_set_specialists_mode(uuid, text),
  public.admin_assign_specialist(uuid, uuid), public.admin_unassign_specialist(uuid, uuid),
  public.admin_change_plan(uuid, text), public.get_super_admin_emails(), public.admin_delete_user(text),
  public.admin_open_conversation(uuid, uuid), public.admin_schema_report()
  to authenticated, service_role;
-- The AI reply worker (a function called with the service key).
grant execute on function public.claim_ai_reply_job(text), public.complete_ai_reply_job(uuid, text),
  public.fail_ai_reply_job(uuid, text, int, text)
  to service_role;

-- private: the schema and helpers that policies and invoker triggers call as the caller
-- (20261122000200 grants them; restated so this file alone tells the whole story).
grant usage on schema private to authenticated, service_role;
grant execute on function private.caller_is_client(), private.require_admin(), private.lock_conversation(uuid),
  private.active_specialist_ids(uuid)
  to authenticated, service_role;

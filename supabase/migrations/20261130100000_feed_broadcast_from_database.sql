-- Broadcast from the database on private channels (issue 41 part 2, sync/SPEC.md R18).
--
-- Every change-feed row (20261122000300_change_feed.sql) tells the devices "pull now" through
-- realtime.send onto a private topic, instead of each device's postgres_changes subscription being
-- evaluated per subscriber by Realtime:
--   conversations, messages, deleted_rows  -> `account:<account id>` (every member pulls them)
--   read_cursors (one user's own)          -> `user:<user id>`       (only that user pulls them)
-- The payload is {v: 1, account_id, change_seq} with event `changed`: no row, so nothing a member may
-- not read rides on it, and the gap-free pull (sync_pull) stays the only source of rows. One message per
-- numbered row: a device compares each number with its cursor and pulls only for one above it (one
-- message per transaction could carry only a number known before the transaction's last row, and a
-- device whose cursor had reached it would miss the later rows).
--
-- Who hears a topic is decided by hosted Realtime at the private join with the realtime.messages
-- SELECT policy poradna_topic_read (20261123001000; public.realtime_topic_allowed: `account:` for
-- members acting in that account, `user:` for that user only, never anon, never a dead session's token:
-- 20261128000220) — supabase/realtime lib/realtime/tenants/authorization.ex. realtime.send is hosted's
-- (supabase/realtime lib/realtime/tenants/repo/migrations/20260605120000_rename_broadcast_send_
-- warning.ex): it never raises, so a lost broadcast never fails a write; the devices' polling and every
-- reconnect's pull (R5.4, R6.3) cover a lost one. The local stack has the same schema
-- (supabase/local/sql/realtime-messages.sql), so 20261129110200's remark that it has none is outdated.
--
-- SECURITY DEFINER (owner: the migration owner, BYPASSRLS as hosted `postgres`): the insert into
-- realtime.messages is the database's, not the writer's, so a service-role or definer-function write
-- broadcasts as well as a member's.

-- Without Realtime's schema, or without the policies (a local database migrated before the stack had
-- realtime.messages, where 20261123001000 skipped them), the devices would join nothing: fail here.
do $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null or to_regprocedure('realtime.topic()') is null then
    raise exception 'realtime.send / realtime.topic() are missing: Broadcast from the database needs Supabase Realtime''s schema'
      using hint = 'Run the migrations on a Supabase project (or the local stack, which creates it: supabase/local/sql/realtime-messages.sql).';
  end if;
  if not exists (select 1 from pg_policies where schemaname = 'realtime' and tablename = 'messages' and policyname = 'poradna_topic_read') then
    create policy poradna_topic_read on realtime.messages for select to authenticated
      using (extension in ('broadcast', 'presence') and public.realtime_topic_allowed(realtime.topic()));
  end if;
  if not exists (select 1 from pg_policies where schemaname = 'realtime' and tablename = 'messages' and policyname = 'poradna_topic_write') then
    create policy poradna_topic_write on realtime.messages for insert to authenticated
      with check (extension in ('broadcast', 'presence') and public.realtime_topic_allowed(realtime.topic()));
  end if;
end $$;

create function private.tg_broadcast_feed_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_topic text := 'account:' || NEW.account_id::text;
begin
  -- (an IF, not a CASE: another table's NEW.user_id must not even be evaluated)
  if TG_TABLE_NAME = 'read_cursors' then
    v_topic := 'user:' || NEW.user_id::text;
  end if;
  perform realtime.send(
    jsonb_build_object('v', 1, 'account_id', NEW.account_id, 'change_seq', NEW.change_seq),
    'changed', v_topic, true);
  return null;
end $$;
revoke all on function private.tg_broadcast_feed_change() from public;

-- After the counter (t50) and the backstop (t90): only rows stored with their number broadcast. An
-- UPDATE that took no number (nothing changed, or its account is being deleted) broadcasts nothing.
create trigger t95_broadcast_insert after insert on public.conversations
  for each row when (NEW.change_seq > 0) execute function private.tg_broadcast_feed_change();
create trigger t95_broadcast_update after update on public.conversations
  for each row when (NEW.change_seq <> OLD.change_seq) execute function private.tg_broadcast_feed_change();
create trigger t95_broadcast_insert after insert on public.messages
  for each row when (NEW.change_seq > 0) execute function private.tg_broadcast_feed_change();
create trigger t95_broadcast_update after update on public.messages
  for each row when (NEW.change_seq <> OLD.change_seq) execute function private.tg_broadcast_feed_change();
create trigger t95_broadcast_insert after insert on public.read_cursors
  for each row when (NEW.change_seq > 0) execute function private.tg_broadcast_feed_change();
create trigger t95_broadcast_update after update on public.read_cursors
  for each row when (NEW.change_seq <> OLD.change_seq) execute function private.tg_broadcast_feed_change();
create trigger t95_broadcast_insert after insert on public.deleted_rows
  for each row execute function private.tg_broadcast_feed_change();

-- One broadcast per transaction and topic, at commit, carrying the transaction's last number (issue 41
-- parts 2 and 3: fewer Realtime messages per send; sync/SPEC.md R18.1).
--
-- 20261130100000 announced every numbered row: a send (its message and its conversation's
-- last_message_at, two numbers in one transaction) paid two realtime.send calls, each a
-- subtransaction and an insert into realtime.messages (hosted's realtime.send: supabase/realtime
-- lib/realtime/tenants/repo/migrations/20260605120000_rename_broadcast_send_warning.ex, its
-- BEGIN … EXCEPTION block), and every device of the account heard `changed` twice: on hosted,
-- Realtime's messages per second are what a project runs out of first (docs/CAPACITY.md). (The
-- function profile of 2,000 single-connection sends put realtime.send at 18 % of send_message's time;
-- row 10a's throughput with 50 clients did not change measurably, A/B on a quiet machine.)
--
-- Why that file said "one message per numbered row": a message per transaction sent from the first
-- row's trigger could carry only that row's number, and a device whose cursor reached it would skip
-- the pull and miss the transaction's later rows. Here the trigger is a deferred constraint trigger:
-- it runs at commit, after every row of the transaction took its number, and announces the account's
-- counter as it is then (public.accounts.change_seq, bumped by private.tg_assign_change_seq under
-- the account row's lock, which this transaction holds until it ends: no other writer can move it).
-- That is the highest number the transaction gave, so a device pulls unless it already has all of it.
-- A read cursor's topic (`user:<id>`) carries the same account counter: at least the cursor row's own
-- number, so never a skipped pull.
--
-- Only the topic announced last is remembered (a transaction-local setting), so a transaction whose
-- rows alternate between accounts announces an account again: more messages, never fewer, and O(1)
-- per row however many accounts a bulk operation touches. An account deleted in the transaction (its
-- row gone, cascading tombstones) announces the row's own number, as before.
--
-- The trigger names stay (bench/capacity-row.ts disables them by name for its postgres_changes phase).

create or replace function private.tg_broadcast_feed_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_topic text := 'account:' || NEW.account_id::text;
  v_seq bigint;
begin
  -- (an IF, not a CASE: another table's NEW.user_id must not even be evaluated)
  if TG_TABLE_NAME = 'read_cursors' then
    v_topic := 'user:' || NEW.user_id::text;
  end if;
  if current_setting('poradna.announced', true) = v_topic then
    return null; -- this transaction's last number on this topic is already announced
  end if;
  perform set_config('poradna.announced', v_topic, true);
  select a.change_seq into v_seq from public.accounts a where a.id = NEW.account_id;
  perform realtime.send(
    jsonb_build_object('v', 1, 'account_id', NEW.account_id, 'change_seq', coalesce(v_seq, NEW.change_seq)),
    'changed', v_topic, true);
  return null;
end $$;
revoke all on function private.tg_broadcast_feed_change() from public;

drop trigger t95_broadcast_insert on public.conversations;
drop trigger t95_broadcast_update on public.conversations;
drop trigger t95_broadcast_insert on public.messages;
drop trigger t95_broadcast_update on public.messages;
drop trigger t95_broadcast_insert on public.read_cursors;
drop trigger t95_broadcast_update on public.read_cursors;
drop trigger t95_broadcast_insert on public.deleted_rows;

-- The WHEN conditions are evaluated when the row is written (only rows stored with a number queue an
-- event); the function runs at commit.
create constraint trigger t95_broadcast_insert after insert on public.conversations
  deferrable initially deferred for each row when (NEW.change_seq > 0) execute function private.tg_broadcast_feed_change();
create constraint trigger t95_broadcast_update after update on public.conversations
  deferrable initially deferred for each row when (NEW.change_seq <> OLD.change_seq) execute function private.tg_broadcast_feed_change();
create constraint trigger t95_broadcast_insert after insert on public.messages
  deferrable initially deferred for each row when (NEW.change_seq > 0) execute function private.tg_broadcast_feed_change();
create constraint trigger t95_broadcast_update after update on public.messages
  deferrable initially deferred for each row when (NEW.change_seq <> OLD.change_seq) execute function private.tg_broadcast_feed_change();
create constraint trigger t95_broadcast_insert after insert on public.read_cursors
  deferrable initially deferred for each row when (NEW.change_seq > 0) execute function private.tg_broadcast_feed_change();
create constraint trigger t95_broadcast_update after update on public.read_cursors
  deferrable initially deferred for each row when (NEW.change_seq <> OLD.change_seq) execute function private.tg_broadcast_feed_change();
create constraint trigger t95_broadcast_insert after insert on public.deleted_rows
  deferrable initially deferred for each row execute function private.tg_broadcast_feed_change();

-- Issue 41 part 3, cut 3 of six (20261130170000 says how a send's instructions were measured and
-- where they went); same rules.

-- ---------------------------------------------------------------------------------------------------
-- 3. conversations.t95_broadcast_update (R18.1) names every column but last_message_at. Its WHEN wants
--    last_message_at unchanged; an UPDATE whose SET list names no other column can only leave the row
--    unchanged (then t50 gives no number and the WHEN is false) or change last_message_at (the WHEN is
--    false): only tg_messages_after_insert's update does that (t10_guard resets last_message_at for API
--    clients). So the same updates are announced, and a send's conversation update is passed over
--    before its WHEN is read (0.04 M a send). A column added to conversations must be added here:
--    tests/db/send-path-statements.test.ts holds the list to the table's columns.

drop trigger t95_broadcast_update on public.conversations;
create constraint trigger t95_broadcast_update
  after update of id, account_id, specialist_id, status, archived_at, chatwoot_conversation_id, card_id,
                  created_at, updated_at, change_seq, owner_state, owner_requested_at, owner_agent_name
  on public.conversations deferrable initially deferred for each row
  when (NEW.change_seq <> OLD.change_seq and NEW.last_message_at is not distinct from OLD.last_message_at)
  execute function private.tg_broadcast_feed_change();

-- A card's welcome also greets when the conversation already exists (issue 21 item 5, second half).
-- 'Aktivovať špecialistu' on a specialist card used to open an existing conversation with that
-- specialist silently, so the card's promise ('welcome_text') was never said. Now the welcome is
-- written into the existing conversation too — once per card: a second tap on the same card, or
-- two taps racing, add nothing (the conversation row is locked while checking, and the welcome
-- message carries the card's id). The text is still only the server's own (start_conversation looks
-- it up from a server-written card; issue 16 item 9); p_welcome_text here is never the caller's.
-- The new-conversation path is unchanged.
create or replace function private.open_conversation(
  p_account_id uuid, p_specialist_id uuid, p_card_id text, p_welcome_text text
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_archived timestamptz;
  v_welcome text := nullif(btrim(coalesce(p_welcome_text, ''), E' \t\r\n'), '');
begin
  for attempt in 1..2 loop
    select c.id, c.archived_at into v_id, v_archived from public.conversations c
     where c.account_id = p_account_id and c.specialist_id = p_specialist_id and c.status = 'active'
       for update;
    if v_id is not null then
      if v_archived is not null then
        update public.conversations set archived_at = null where id = v_id;
      end if;
      if v_welcome is not null and p_card_id is not null
         and not exists (select 1 from public.messages m
                          where m.conversation_id = v_id
                            and m.direction = 'specialist'
                            and m.payload->>'kind' = 'welcome'
                            and m.payload->>'card_id' = p_card_id) then
        insert into public.messages (conversation_id, text, type, direction, source, payload)
        values (v_id, p_welcome_text, 'text', 'specialist', 'system',
                jsonb_build_object('kind', 'welcome', 'card_id', p_card_id));
      end if;
      return jsonb_build_object('conversation_id', v_id, 'created', false);
    end if;
    begin
      insert into public.conversations (account_id, specialist_id, card_id)
      values (p_account_id, p_specialist_id, p_card_id)
      returning id into v_id;
    exception when unique_violation then
      continue; -- another transaction opened it first: read it
    end;
    if v_welcome is not null then
      insert into public.messages (conversation_id, text, type, direction, source, payload)
      values (v_id, p_welcome_text, 'text', 'specialist', 'system',
              jsonb_strip_nulls(jsonb_build_object('kind', 'welcome', 'card_id', p_card_id)));
    end if;
    return jsonb_build_object('conversation_id', v_id, 'created', true);
  end loop;
  raise exception 'Could not open the conversation' using errcode = '40001';
end $$;

revoke all on function private.open_conversation(uuid, uuid, text, text) from public;

-- One greeting per conversation (issue 37 user item 7). 20261124000900 wrote a card's welcome into
-- an existing conversation once per card, so 'Aktivovať špecialistu' for a specialist the user
-- already chats with (opened by 'Chatovať', which greets with 'Dobrý deň, som …') added a second
-- greeting to that chat. Now an existing conversation gets the card's welcome only while it holds
-- no welcome at all: a conversation that was never greeted still hears the card's promise (issue 21
-- item 5), a greeted one is just reopened. The conversation row is still locked while checking, so
-- two taps racing add at most one welcome. The new-conversation path is unchanged.
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
                            and m.payload->>'kind' = 'welcome') then
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

-- start_conversation no longer stores the caller's text (issue 16 item 9): p_welcome_text used to be
-- written as a direction 'specialist' message, so any member could plant a fake specialist message
-- (with links) in their account's chat. The welcome now comes only from the server's own data: the
-- specialist card message the conversation is started from (p_card_id), and only when that card is
-- a non-user message of the caller's account offering this very specialist. Members can only insert
-- direction 'user' messages (row guards), so a card's payload is server-written.
--
-- The signature is kept (p_welcome_text is accepted and ignored) so PWAs already installed with the
-- old sync engine, which still send it, keep working; PostgREST would answer 404 for a dropped name.
--
-- Without a card, an AI specialist other than the assistant greets with its own row's data (name,
-- role, bio), so a conversation started with 'Chatovať' never opens blank (issue 21 item 5); the text
-- mirrors the app's voice and is still the server's own. The assistant is not greeted here (its first
-- conversation is made by ensure_first_conversation; a specialist request opens it only to carry the
-- request).
create or replace function public.start_conversation(
  p_specialist_id uuid, p_card_id text default null, p_welcome_text text default null
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_spec public.specialists%rowtype;
  v_welcome text;
begin
  if auth.uid() is null then
    raise exception 'A signed-in user is required' using errcode = '42501';
  end if;
  if v_account is null then
    raise exception 'Account ID not found' using errcode = 'P0002';
  end if;
  select * into v_spec from public.specialists s where s.id = p_specialist_id;
  if v_spec.id is null then
    raise exception 'Specialist not found' using errcode = 'P0002';
  end if;
  if not v_spec.is_assistant
     and not exists (select 1 from private.active_specialist_ids(v_account) a(id) where a.id = p_specialist_id) then
    raise exception 'This specialist is not available for your account' using errcode = '42501',
      hint = 'The account''s plan or its assigned specialists do not include this specialist.';
  end if;
  if char_length(coalesce(p_card_id, '')) > 200 then
    raise exception 'card_id is too long' using errcode = '22001';
  end if;
  -- The card's own welcome text; p_card_id is text, so only a well-formed uuid is looked up.
  if p_card_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select m.payload->>'welcome_text' into v_welcome
      from public.messages m
     where m.id = p_card_id::uuid
       and m.account_id = v_account
       and m.direction <> 'user'
       and m.payload->>'specialist_id' = p_specialist_id::text
       and jsonb_typeof(m.payload->'welcome_text') = 'string';
  end if;
  if v_welcome is null and p_card_id is null and v_spec.is_ai and not v_spec.is_assistant then
    v_welcome := concat_ws(' ',
      'Dobrý deň, som ' || v_spec.name || coalesce(' (' || nullif(btrim(v_spec.role), '') || ')', '') || '.',
      nullif(btrim(v_spec.bio), ''),
      'S čím vám môžem pomôcť?');
  end if;
  return private.open_conversation(v_account, p_specialist_id, p_card_id, left(v_welcome, 4000));
end $$;

revoke all on function public.start_conversation(uuid, text, text) from public, anon;
grant execute on function public.start_conversation(uuid, text, text) to authenticated, service_role;

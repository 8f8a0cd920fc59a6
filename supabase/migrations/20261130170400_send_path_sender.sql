-- Issue 41 part 3, cut 5 of six (20261130170000 says how a send's instructions were measured and
-- where they went); same rules.

-- ---------------------------------------------------------------------------------------------------
-- 5. send_message names sender_user_id, so the column's default (auth.uid(), which parses the claims'
--    JSON) is not evaluated for an API client, whose sender t10_guard stamps with auth.uid() anyway;
--    any other caller gets auth.uid() as the default gave it (0.02 M a send).

CREATE OR REPLACE FUNCTION public.send_message(p_conversation_id uuid, p_text text, p_client_correlation_id uuid, p_payload jsonb DEFAULT NULL::jsonb)
 RETURNS messages
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v public.messages;
  v_elsewhere uuid;
  v_sender uuid;
begin
  if p_client_correlation_id is null then
    raise exception 'client_correlation_id is required' using errcode = '22023';
  end if;
  if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
    raise exception 'payload must be a JSON object' using errcode = '22023';
  end if;

  -- 1. A repeat answers with the stored row, also after the caller's account switched.
  v := private.own_sent_message(p_conversation_id, p_client_correlation_id);
  if v.id is not null then
    return v;
  end if;

  if not exists (select 1 from public.conversations c where c.id = p_conversation_id) then
    -- 2. Not of the account acted in. PostgREST's own error form (see 20261123001200).
    v_elsewhere := private.conversation_account_for_admin(p_conversation_id);
    if v_elsewhere is not null then
      raise sqlstate 'PGRST' using
        message = json_build_object(
          'code', 'P0001', 'message', 'Conversation is in another account', 'details', v_elsewhere::text,
          'hint', 'The super admin acts in another account now; send again from that account (details names it).')::text,
        detail = '{"status":409,"headers":{}}';
    end if;
    raise sqlstate 'PGRST' using
      message = '{"code":"P0002","message":"Conversation not found","details":null,"hint":null}',
      detail = '{"status":404,"headers":{}}';
  end if;

  if coalesce(btrim(p_text, E' \t\r\n'), '') = ''
     and (case when jsonb_typeof(p_payload -> 'attachments') = 'array'
               then jsonb_array_length(p_payload -> 'attachments') = 0 else true end) then
    raise exception 'Message text is empty' using errcode = '22023';
  end if;

  if current_user not in ('authenticated', 'anon') then
    v_sender := auth.uid();
  end if;
  insert into public.messages (conversation_id, text, type, direction, source, payload, client_correlation_id, sender_user_id)
  values (p_conversation_id, coalesce(p_text, ''), 'text', 'user', 'app', p_payload, p_client_correlation_id,
          v_sender)
  on conflict (conversation_id, client_correlation_id) do nothing
  returning * into v;

  if v.id is null then
    -- Another member's message with this correlation id (a client reusing ids): theirs, visible.
    select * into v from public.messages m
     where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  end if;
  return v;
end $function$;

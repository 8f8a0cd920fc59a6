-- send_message at the moment a super admin's account switches (issue 18; the hostile fuzz's seed 1).
-- start_impersonation / stop_impersonation change the account the caller acts in
-- (public.current_account_id()) at once, on the server; the sync engine of that device switches a
-- moment later (the app restarts it in the other account). A send of the old account retried in that
-- window was judged in the new one: RLS hid its conversation, so the answer was 404 'Conversation not
-- found' (R9.3, permanent) and the message was shown failed — even when an earlier attempt whose
-- reply was lost had stored it. Two changes, both only about the caller's own rows:
--   1. Idempotency first, across accounts: a message the caller sent with this correlation id is
--      returned as it is stored, whichever account the caller acts in now. Only rows with
--      sender_user_id = auth.uid() are found, so nothing of anyone else is revealed.
--   2. A conversation that exists but is not of the account acted in answers 409 'Conversation is in
--      another account' when the caller is a super admin (who may act in every account, so its
--      existence is no secret to them); `details` names that account. The engine treats it as "wait"
--      (R9.8): the entry learns its account (an entry written before its conversation was synced
--      had none) and goes out once the engine acts in that account again. Everyone else still gets the 404: for
--      a member a conversation of another account is simply missing (no existence oracle).
create or replace function private.own_sent_message(p_conversation_id uuid, p_client_correlation_id uuid)
returns public.messages
language sql stable security definer set search_path = ''
as $$
  select m.* from public.messages m
   where m.conversation_id = p_conversation_id
     and m.client_correlation_id = p_client_correlation_id
     and m.sender_user_id = auth.uid()
$$;
comment on function private.own_sent_message(uuid, uuid) is
  'The caller''s own message of this correlation id in any account (send_message''s idempotency across an account switch).';
revoke all on function private.own_sent_message(uuid, uuid) from public, anon;
grant execute on function private.own_sent_message(uuid, uuid) to authenticated, service_role;

create or replace function private.conversation_account_for_admin(p_conversation_id uuid)
returns uuid
language sql stable security definer set search_path = ''
as $$
  select c.account_id from public.conversations c
   where c.id = p_conversation_id and public.is_super_admin()
$$;
comment on function private.conversation_account_for_admin(uuid) is
  'For a super admin: the account of the conversation, in any account (send_message: 409 naming it instead of 404).';
revoke all on function private.conversation_account_for_admin(uuid) from public, anon;
grant execute on function private.conversation_account_for_admin(uuid) to authenticated, service_role;

create or replace function public.send_message(
  p_conversation_id uuid,
  p_text text,
  p_client_correlation_id uuid,
  p_payload jsonb default null
) returns public.messages
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  v public.messages;
  v_elsewhere uuid;
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

  if coalesce(btrim(p_text, E' \t\r\n'), '') = '' then
    raise exception 'Message text is empty' using errcode = '22023';
  end if;

  insert into public.messages (conversation_id, text, type, direction, source, payload, client_correlation_id)
  values (p_conversation_id, p_text, 'text', 'user', 'app', p_payload, p_client_correlation_id)
  on conflict (conversation_id, client_correlation_id) do nothing
  returning * into v;

  if v.id is null then
    -- Another member's message with this correlation id (a client reusing ids): theirs, visible.
    select * into v from public.messages m
     where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  end if;
  return v;
end $$;

revoke all on function public.send_message(uuid, text, uuid, jsonb) from public, anon;
grant execute on function public.send_message(uuid, text, uuid, jsonb) to authenticated, service_role;

-- send_message answers a missing conversation with HTTP 404 rather than 500 (issue 18, row 3).
-- The insert guard raises 'Conversation not found' with SQLSTATE P0002, which PostgREST maps to 500
-- (its table: P0001 → 400, other P0* → 500), so the sync engine counted a deleted conversation as a
-- transient server error and retried its queued sends forever. The same check now runs first, through
-- RLS (security invoker: a conversation of another account is just as missing), and raises PostgREST's
-- own error form (SQLSTATE 'PGRST', message = the JSON error body, detail = the status; PostgREST
-- docs, "Raise errors with HTTP Status Codes", v11.2+; we ship 12). A completed conversation is
-- already refused by the guard with 23514, a 400. The body is otherwise unchanged (20261122000600).
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
begin
  if p_client_correlation_id is null then
    raise exception 'client_correlation_id is required' using errcode = '22023';
  end if;
  if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
    raise exception 'payload must be a JSON object' using errcode = '22023';
  end if;

  select * into v from public.messages m
   where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  if v.id is not null then
    return v;
  end if;

  if not exists (select 1 from public.conversations c where c.id = p_conversation_id) then
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
    select * into v from public.messages m
     where m.conversation_id = p_conversation_id and m.client_correlation_id = p_client_correlation_id;
  end if;
  return v;
end $$;

-- `create or replace` keeps the grants; restated so this file alone says who may call it.
revoke all on function public.send_message(uuid, text, uuid, jsonb) from public, anon;
grant execute on function public.send_message(uuid, text, uuid, jsonb) to authenticated, service_role;

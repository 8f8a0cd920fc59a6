-- A message carries its attachments in payload.attachments (issue 38), and a message whose
-- attachments are not all stored is never created.
--
-- Every insert by an API client (send_message runs as the caller, and a direct PostgREST insert into
-- public.messages too) passes t20_attachments, after the guard (t10) has locked the conversation and
-- checked it is of the account the caller acts for. For each entry of payload.attachments:
--   * `id` is a UUID, `path` is `{account_id}/{conversation_id}/{id}/{file name}` with the account
--     the caller acts for and this message's conversation (decided from the text of the path alone,
--     before any lookup, so another account's paths are refused without revealing whether they exist);
--   * the object `path` exists in bucket `attachments`, looked up AS THE CALLER: the storage read
--     policy (20261128000400) shows a member only their account's folder, so a lookup never sees
--     more than the caller could download themselves; likewise an optional `thumb_path` in the same
--     attachment folder;
--   * the stored entry is rebuilt by the server: file_size and content type come from the object's
--     metadata (what the client claims is not kept), file_type is 'image' for image/* else 'file',
--     data_url / thumb_url are `storage:attachments/<path>` (a client resolves them to a signed URL;
--     the database does not know the project's public address), width/height are kept only as
--     positive integers up to 20,000.
-- Refusals are 400 (SQLSTATE 22023 → PostgREST 400) with a message naming the rule; at most 10
-- attachments a message. Server code (service_role, Chatwoot webhooks) is trusted as before.
--
-- send_message: a message with attachments may have an empty caption (text ''); without attachments
-- an empty text is still refused. Otherwise it is 20261124001000_send_message_account_switch.sql.

create function private.max_attachments() returns int
language sql immutable set search_path = ''
as $$ select 10 $$;
revoke all on function private.max_attachments() from public;
grant execute on function private.max_attachments() to authenticated, service_role;

create function private.attachment_refused(p_message text) returns void
language plpgsql volatile set search_path = ''
as $$
begin
  raise exception '%', p_message using errcode = '22023',
    hint = 'Upload every file to bucket attachments at {account_id}/{conversation_id}/{attachment_id}/{file name} first.';
end $$;
revoke all on function private.attachment_refused(text) from public;
grant execute on function private.attachment_refused(text) to authenticated, service_role;

-- The object's metadata, as the caller sees it (SECURITY INVOKER: the storage RLS decides); null when
-- the caller cannot see it or it does not exist.
create function private.visible_attachment_object(p_name text) returns jsonb
language sql stable security invoker set search_path = ''
as $$
  select coalesce(o.metadata, '{}'::jsonb) from storage.objects o
   where o.bucket_id = 'attachments' and o.name = p_name
$$;
revoke all on function private.visible_attachment_object(text) from public;
grant execute on function private.visible_attachment_object(text) to authenticated, service_role;

-- One entry checked and rebuilt; `p_folder` is '{account}/{conversation}/'.
create function private.checked_attachment(p_entry jsonb, p_folder text) returns jsonb
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_id text := p_entry ->> 'id';
  v_path text := p_entry ->> 'path';
  v_thumb text := nullif(p_entry ->> 'thumb_path', '');
  v_meta jsonb;
  v_thumb_meta jsonb;
  v_mime text;
  v_w int;
  v_h int;
begin
  if jsonb_typeof(p_entry) <> 'object' then
    perform private.attachment_refused('Each attachment must be an object');
  end if;
  if v_id is null or v_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    perform private.attachment_refused('Attachment id must be a UUID');
  end if;
  -- The path's text decides the folder: nothing is looked up for a path outside it.
  if v_path is null or left(v_path, char_length(p_folder || v_id || '/')) <> p_folder || v_id || '/'
     or position('/' in substr(v_path, char_length(p_folder || v_id || '/') + 1)) > 0
     or substr(v_path, char_length(p_folder || v_id || '/') + 1) = '' then
    perform private.attachment_refused(
      'Attachment path must be {account_id}/{conversation_id}/{attachment_id}/{file name} of this conversation in your account');
  end if;
  if v_thumb is not null and (left(v_thumb, char_length(p_folder || v_id || '/')) <> p_folder || v_id || '/'
     or position('/' in substr(v_thumb, char_length(p_folder || v_id || '/') + 1)) > 0
     or v_thumb = v_path) then
    perform private.attachment_refused('Attachment thumb_path must be another file in the attachment''s own folder');
  end if;
  v_meta := private.visible_attachment_object(v_path);
  if v_meta is null then
    perform private.attachment_refused('Attachment is not uploaded: ' || v_path);
  end if;
  if v_thumb is not null then
    v_thumb_meta := private.visible_attachment_object(v_thumb);
    if v_thumb_meta is null then
      perform private.attachment_refused('Attachment thumbnail is not uploaded: ' || v_thumb);
    end if;
  end if;
  v_mime := coalesce(v_meta ->> 'mimetype', 'application/octet-stream');
  if jsonb_typeof(p_entry -> 'width') = 'number' and (p_entry ->> 'width')::numeric between 1 and 20000 then
    v_w := (p_entry ->> 'width')::numeric::int;
  end if;
  if jsonb_typeof(p_entry -> 'height') = 'number' and (p_entry ->> 'height')::numeric between 1 and 20000 then
    v_h := (p_entry ->> 'height')::numeric::int;
  end if;
  return jsonb_build_object(
    'id', lower(v_id),
    'file_type', case when v_mime like 'image/%' then 'image' else 'file' end,
    'content_type', v_mime,
    'name', left(coalesce(nullif(p_entry ->> 'name', ''), substr(v_path, char_length(p_folder || v_id || '/') + 1)), 255),
    'path', v_path,
    'data_url', 'storage:attachments/' || v_path,
    'thumb_path', v_thumb,
    'thumb_url', case when v_thumb is null then null else 'storage:attachments/' || v_thumb end,
    'width', v_w,
    'height', v_h,
    'file_size', (v_meta ->> 'size')::bigint);
end $$;
revoke all on function private.checked_attachment(jsonb, text) from public;
grant execute on function private.checked_attachment(jsonb, text) to authenticated, service_role;

create function private.tg_messages_attachments() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_list jsonb;
  v_out jsonb := '[]'::jsonb;
  v_folder text;
  v_entry jsonb;
  v_seen text[] := '{}';
begin
  if not private.caller_is_client() or NEW.payload is null or not (NEW.payload ? 'attachments') then
    return NEW;
  end if;
  v_list := NEW.payload -> 'attachments';
  if jsonb_typeof(v_list) <> 'array' then
    perform private.attachment_refused('payload.attachments must be an array');
  end if;
  if jsonb_array_length(v_list) > private.max_attachments() then
    perform private.attachment_refused(format('At most %s attachments a message', private.max_attachments()));
  end if;
  -- t10_guard copied the conversation's account, which it checked is the one the caller acts for.
  v_folder := NEW.account_id::text || '/' || NEW.conversation_id::text || '/';
  for v_entry in select e from jsonb_array_elements(v_list) e loop
    v_entry := private.checked_attachment(v_entry, v_folder);
    if (v_entry ->> 'id') = any (v_seen) then
      perform private.attachment_refused('Attachment ids must differ');
    end if;
    v_seen := v_seen || (v_entry ->> 'id');
    v_out := v_out || jsonb_build_array(v_entry);
  end loop;
  NEW.payload := jsonb_set(NEW.payload, '{attachments}', v_out);
  return NEW;
end $$;
revoke all on function private.tg_messages_attachments() from public;
create trigger t20_attachments before insert on public.messages
  for each row execute function private.tg_messages_attachments();

-- send_message: 20261124001000's body; only the empty-text rule now lets a caption be empty when the
-- message has attachments (t20_attachments checks them on the insert below).
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

  if coalesce(btrim(p_text, E' \t\r\n'), '') = ''
     and (case when jsonb_typeof(p_payload -> 'attachments') = 'array'
               then jsonb_array_length(p_payload -> 'attachments') = 0 else true end) then
    raise exception 'Message text is empty' using errcode = '22023';
  end if;

  insert into public.messages (conversation_id, text, type, direction, source, payload, client_correlation_id)
  values (p_conversation_id, coalesce(p_text, ''), 'text', 'user', 'app', p_payload, p_client_correlation_id)
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

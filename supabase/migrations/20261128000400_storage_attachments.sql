-- Attachments (issue 38): a private bucket and the policies that decide who reads and writes it.
-- The storage schema itself belongs to the platform (hosted: the Storage service; locally:
-- supabase/local/storage/schema.sql), so `supabase db push` on a hosted project adds only this.
--   * Object paths are {account_id}/{conversation_id}/{attachment_id}/{file name}.
--   * A member reads and writes only their account's folder, and writes only into a conversation of
--     that account (the conversation must be readable to them, i.e. of the account they act for).
--   * A super admin reads every attachment (support); writes stay with the account's members.
--   * anon: no policy, nothing. service_role bypasses RLS (server code).
-- Limits: 25 MB a file; images, PDF, office documents, text and zip (no HTML, no SVG: they could run
-- script when opened). The local Storage API also checks that the content matches the type.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('attachments', 'attachments', false, 25 * 1024 * 1024, array[
  'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif', 'image/avif',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'text/plain', 'text/csv', 'text/markdown',
  'application/zip', 'application/x-zip-compressed'
])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- True when `name` is {account}/{conversation}/{attachment}/{file} inside the account the caller acts
-- for. SECURITY INVOKER on purpose: the conversation lookup runs under the caller's own RLS.
create function private.attachment_path_writable(p_name text) returns boolean
language sql stable security invoker set search_path = ''
as $$
  select array_length(storage.foldername(p_name), 1) = 3
     and storage.filename(p_name) <> ''
     and (storage.foldername(p_name))[1] = (select public.current_account_id())::text
     and exists (
       select 1 from public.conversations c
        where c.id::text = (storage.foldername(p_name))[2]
          and c.account_id = (select public.current_account_id()))
$$;
revoke all on function private.attachment_path_writable(text) from public;
grant execute on function private.attachment_path_writable(text) to authenticated;

create policy attachments_read on storage.objects for select to authenticated
  using (bucket_id = 'attachments'
         and ((storage.foldername(name))[1] = (select public.current_account_id())::text
              or (select public.is_super_admin())));

create policy attachments_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'attachments' and private.attachment_path_writable(name));

-- Upsert (x-upsert: true) replaces an object in place; both the old and the new row must be writable.
create policy attachments_update on storage.objects for update to authenticated
  using (bucket_id = 'attachments' and private.attachment_path_writable(name))
  with check (bucket_id = 'attachments' and private.attachment_path_writable(name));

create policy attachments_delete on storage.objects for delete to authenticated
  using (bucket_id = 'attachments'
         and (storage.foldername(name))[1] = (select public.current_account_id())::text);

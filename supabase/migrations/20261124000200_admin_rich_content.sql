-- Issue 21, admin item 5: the rich content test of /admin/chatwoot (admin-area.md sections 2 and 7:
-- "SELECT messages … by conversation_id and type json") saw only the admin's own account: messages
-- RLS confines every reader, super admins included, to current_account_id() (20261122000500).
--
-- The policy is deliberately NOT widened: the app's realtime and sync read `messages` through RLS,
-- and a super-admin read policy would stream every account's chat into the admin's own chat list.
-- Instead this one super-admin function reads rich messages across accounts, read-only, capped.
-- Rich content = every non-text type the schema allows ('json' rich_content cards, 'rich' and
-- 'rich-content' attachments).
create function public.admin_rich_messages(p_conversation_id uuid default null, p_limit int default 50)
returns table (id uuid, text text, payload jsonb, created_at timestamptz, conversation_id uuid, account_id uuid, type text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 200 then
    raise exception 'p_limit must be between 1 and 200' using errcode = '22023';
  end if;
  return query
    select m.id, m.text, m.payload, m.created_at, m.conversation_id, m.account_id, m.type
      from public.messages m
     where m.type in ('json', 'rich', 'rich-content')
       and (p_conversation_id is null or m.conversation_id = p_conversation_id)
     order by m.created_at desc, m.id desc
     limit p_limit;
end $$;
revoke all on function public.admin_rich_messages(uuid, int) from public, anon;
grant execute on function public.admin_rich_messages(uuid, int) to authenticated, service_role;

-- The Chatwoot contact that stands for an account in one inbox (one per specialist inbox). Its
-- pubsub_token lets the account's browsers join RoomChannel as that contact, so they receive only
-- non-private messages of their own conversations. Written by functions (service role) only.
create table public.chatwoot_contacts (
  account_id uuid not null references public.accounts (id) on delete cascade,
  inbox_id bigint not null,
  contact_id bigint,
  source_id text not null,
  pubsub_token text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, inbox_id)
);

alter table public.chatwoot_contacts enable row level security;
-- Members read their own account's tokens (chatwoot-pubsub-token serves them); nobody writes but the
-- service role, which bypasses RLS.
create policy chatwoot_contacts_member_read on public.chatwoot_contacts
  for select to authenticated using (public.is_account_member(account_id));
revoke insert, update, delete on public.chatwoot_contacts from anon, authenticated;
revoke all on public.chatwoot_contacts from anon;

-- Opens (or finds) an account's active conversation with a specialist on behalf of a super admin or
-- server code (the /admin/chatwoot send tool). Members use start_conversation instead.
create function public.admin_open_conversation(p_account_id uuid, p_specialist_id uuid) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if not exists (select 1 from public.accounts a where a.id = p_account_id) then
    raise exception 'Account not found' using errcode = 'P0002';
  end if;
  if not exists (select 1 from public.specialists s where s.id = p_specialist_id) then
    raise exception 'Specialist not found' using errcode = 'P0002';
  end if;
  return private.open_conversation(p_account_id, p_specialist_id, null, null);
end $$;
revoke all on function public.admin_open_conversation(uuid, uuid) from public, anon;
grant execute on function public.admin_open_conversation(uuid, uuid) to authenticated, service_role;

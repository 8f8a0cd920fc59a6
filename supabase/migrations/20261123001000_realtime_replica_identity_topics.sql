-- Realtime on hosted Supabase, and who may broadcast where.
--
-- 1. REPLICA IDENTITY FULL on the published chat tables. With the default identity a DELETE's WAL
--    record carries only the primary key, so Supabase Realtime cannot evaluate the clients'
--    `account_id=eq.…` filter and drops the event (realtime.apply_rls checks filters against the old
--    columns for DELETE — supabase/realtime, lib/realtime/tenants/repo/migrations/
--    20260420000000_squash_migrations.ex). With FULL it gets the whole old row; because RLS cannot be
--    checked on a deleted row, Supabase then still sends only the primary key in old_record.
--    The local realtime (supabase/local/realtime/dispatcher.ts) reads relreplident and behaves the
--    same way, so forgetting this line fails the local tests too.
alter table public.conversations replica identity full;
alter table public.messages replica identity full;
alter table public.read_cursors replica identity full;

-- 2. Which realtime topics a caller may broadcast into (and receive broadcasts of). The app names its
--    channels `sync:<account id>[:<instance>]` (sync/engine-deps.ts) and `messages:<conversation id>`
--    (src/data/online-only/use-online-chat.ts); such a topic belongs to that account or conversation
--    and only a caller who acts inside it may use it. Any other topic is not scoped (public-channel
--    semantics). SECURITY INVOKER: it decides with the caller's own RLS (conversations_read) and
--    helpers, so it can never see more than the caller can.
create function public.realtime_topic_allowed(p_topic text) returns boolean
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_scope text := split_part(p_topic, ':', 1);
  v_id text := split_part(p_topic, ':', 2);
begin
  if v_scope not in ('sync', 'account', 'messages') then
    return true;
  end if;
  -- A scoped prefix with something that is not a uuid names nothing the caller owns.
  if v_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  if v_scope = 'messages' then
    return exists (select 1 from public.conversations c where c.id = v_id::uuid);
  end if;
  return public.is_account_member(v_id::uuid);
end $$;

revoke all on function public.realtime_topic_allowed(text) from public;
-- anon may ask (unscoped topics are open to it); for a scoped topic is_account_member is not granted
-- to anon, so the call fails and the local realtime counts that as "not allowed".
grant execute on function public.realtime_topic_allowed(text) to anon, authenticated, service_role;

-- 3. Hosted Supabase authorizes private channels with RLS on realtime.messages (supabase/realtime,
--    lib/realtime/tenants/authorization.ex: a read is a SELECT, a broadcast an INSERT, with
--    realtime.topic() set to the channel's topic). The same rule applies there when the table exists;
--    the local stack has no realtime schema and calls realtime_topic_allowed itself.
do $$
begin
  if to_regclass('realtime.messages') is not null and to_regprocedure('realtime.topic()') is not null then
    execute $p$
      create policy poradna_topic_read on realtime.messages for select to authenticated
        using (extension in ('broadcast', 'presence') and public.realtime_topic_allowed(realtime.topic()))
    $p$;
    execute $p$
      create policy poradna_topic_write on realtime.messages for insert to authenticated
        with check (extension in ('broadcast', 'presence') and public.realtime_topic_allowed(realtime.topic()))
    $p$;
  end if;
exception when insufficient_privilege then
  -- A platform where the migration owner may not add policies to realtime.messages: the app uses no
  -- private channels, so the deploy goes on; without policies hosted Realtime admits no private joins.
  raise warning 'realtime.messages policies not created (%); private channels stay closed', sqlerrm;
end $$;

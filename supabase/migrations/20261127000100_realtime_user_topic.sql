-- A topic of one user's own devices (issue 19, sync/SPEC.md R6.8): `user:<user id>[:…]`.
--
-- The sync engine hands a message it is sending to the user's other devices over a private
-- broadcast channel on this topic, in parallel with the send_message request, so another device of
-- the same user paints it (as "sending") before the server's row reaches it. The channel is private:
-- hosted Realtime admits it only through the realtime.messages policies of 20261123001000, which ask
-- public.realtime_topic_allowed; the local realtime asks the same function. Private and public
-- channels of one topic never see each other's broadcasts (hosted: Realtime.Tenants.tenant_topic puts
-- private ones under "<tenant>-private:<topic>", supabase/realtime lib/realtime/tenants.ex; locally
-- supabase/local/realtime/broadcast.ts), so a public channel of the same name reaches nobody's relay.
--
-- Only the user themself may read or write it: another member of the same account may not (it would
-- let them put a pending bubble on a colleague's screen), nor anon (auth.uid() is null). Everything
-- else is as in 20261123001000 (same signature, SECURITY INVOKER, same grants).
create or replace function public.realtime_topic_allowed(p_topic text) returns boolean
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_scope text := split_part(p_topic, ':', 1);
  v_id text := split_part(p_topic, ':', 2);
begin
  if v_scope not in ('sync', 'account', 'messages', 'user') then
    return true;
  end if;
  -- A scoped prefix with something that is not a uuid names nothing the caller owns.
  if v_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  if v_scope = 'user' then
    return coalesce(v_id::uuid = auth.uid(), false);
  end if;
  if v_scope = 'messages' then
    return exists (select 1 from public.conversations c where c.id = v_id::uuid);
  end if;
  return public.is_account_member(v_id::uuid);
end $$;

revoke all on function public.realtime_topic_allowed(text) from public;
grant execute on function public.realtime_topic_allowed(text) to anon, authenticated, service_role;

-- A signed-out session's access token no longer joins the app's realtime topics (issue 36 F15).
--
-- Hosted Realtime checks a token's signature and `exp` only (supabase/realtime
-- lib/realtime_web/channels/auth/jwt_verification.ex: Joken with an `exp` validator), never whether
-- its session still exists, and neither does PostgREST: after a logout or a session revoked by an
-- admin, the token keeps working until it expires (JWT_EXPIRY, 3600 s by default). What both stacks
-- do ask is this app's own rule for private channels: hosted Realtime runs the realtime.messages
-- policies of 20261123001000 at every join and every access_token refresh of a private channel, and
-- the local realtime asks the same function at the same two moments
-- (supabase/local/realtime/connection.ts). So the rule itself now also requires the token's session
-- (its `session_id` claim) to exist in auth.sessions: a join, a re-join and a token refresh with a
-- dead session's token are refused, on hosted Supabase and locally alike. A channel already open is
-- not re-checked by hosted Realtime until the client pushes a token or the token expires; the local
-- realtime behaves the same (SECURITY.md, "Issue 36": the window).
--
-- Tokens without a session (the anon key, service role) are judged as before.

-- True unless the caller's token names a session that no longer exists. SECURITY DEFINER: members
-- cannot read auth.sessions.
create function private.jwt_session_alive() returns boolean
language sql stable security definer set search_path = ''
as $$
  select case
    when auth.jwt() ->> 'session_id' is null then true
    when auth.jwt() ->> 'session_id' !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then false
    else exists (select 1 from auth.sessions s where s.id = (auth.jwt() ->> 'session_id')::uuid)
  end
$$;
revoke all on function private.jwt_session_alive() from public;
grant execute on function private.jwt_session_alive() to authenticated, service_role;

-- As in 20261127000100_realtime_user_topic.sql, with the session check first for the scoped topics
-- (same signature, SECURITY INVOKER, same grants). anon never reaches private.* (it has no usage on
-- the schema, and no session).
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
  if auth.uid() is not null and not private.jwt_session_alive() then
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

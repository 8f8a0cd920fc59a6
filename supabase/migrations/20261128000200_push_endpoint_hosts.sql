-- Push endpoints name a push service, in one shape every parser reads alike (issue 36 N2).
-- push_subscribe took any https URL, and the senders checked the host with the WHATWG URL parser while
-- web-push connects to the host of Node's legacy url.parse(): `https://127.0.0.11;.fcm.googleapis.com/v1`
-- (also with `'`, `{`, `}`, `%3B`) passed as a subdomain of fcm.googleapis.com and made the server open
-- TLS to 127.0.0.11:443, and a 404/410 answer then deleted the subscription (an oracle). Now the table
-- stores only `https://<plain LDH host>[:port]` followed by a path or query of RFC 3986 characters, on
-- an allowed push-service host without a port; the senders check the same shape and that both
-- parsers agree before every send (supabase/functions/_shared/push/endpoint.ts).
--
-- The allowed hosts live here so the RPC can check them: the five browser push services by default.
-- The local stack writes its PUSH_ENDPOINT_HOSTS and PUSH_ALLOW_PRIVATE_ENDPOINTS here at every start
-- (supabase/local/push-worker.ts); on hosted Supabase an operator with a self-hosted push service runs
--   update private.push_settings set endpoint_hosts = endpoint_hosts || '{push.example.com}';
alter table private.push_settings
  add column endpoint_hosts text[] not null
    default array['fcm.googleapis.com', 'android.googleapis.com', 'push.services.mozilla.com', 'push.apple.com', 'notify.windows.com'],
  add column allow_any_endpoint_host boolean not null default false;

-- True when the server may POST to p_endpoint. Keep the pattern equal to ENDPOINT_SHAPE in endpoint.ts.
create function private.push_endpoint_allowed(p_endpoint text) returns boolean
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_m text[];
  v_host text;
  v_settings private.push_settings;
begin
  if p_endpoint is null or char_length(p_endpoint) > 2048 then
    return false;
  end if;
  v_m := regexp_match(p_endpoint, '^https://([A-Za-z0-9.-]+)(:[0-9]{1,5})?([/?][A-Za-z0-9._~!$&''()*+,;=:@%/?-]*)?$');
  if v_m is null then
    return false;
  end if;
  v_host := lower(v_m[1]);
  if char_length(v_host) > 253
     or v_host !~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$' then
    return false;
  end if;
  select * into v_settings from private.push_settings;
  if v_settings.allow_any_endpoint_host then
    return true;
  end if;
  return v_m[2] is null
     and exists (select 1 from unnest(v_settings.endpoint_hosts) h
                  where v_host = lower(h) or right(v_host, char_length(h) + 1) = '.' || lower(h));
end $$;
revoke all on function private.push_endpoint_allowed(text) from public;
-- The table trigger runs as the writer: push_subscribe's owner, or server code as service_role.
grant execute on function private.push_endpoint_allowed(text) to service_role;

-- Every write of an endpoint (push_subscribe's insert and its on-conflict update, server code) passes
-- the check; push_subscribe has already refused a non-https endpoint with its own message, so what
-- reaches this trigger from it is an https URL that names no push service. Rows stored before this
-- migration are not touched: the senders refuse them before every send.
create function private.tg_push_subscriptions_endpoint() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if not private.push_endpoint_allowed(NEW.endpoint) then
    raise exception 'endpoint must be an https URL of a browser push service' using errcode = '22023',
      hint = 'Allowed are the push services of Chrome, Firefox, Safari and Edge (private.push_settings.endpoint_hosts).';
  end if;
  return NEW;
end $$;
revoke all on function private.tg_push_subscriptions_endpoint() from public;
create trigger t05_endpoint_allowed before insert or update of endpoint on public.push_subscriptions
  for each row execute function private.tg_push_subscriptions_endpoint();

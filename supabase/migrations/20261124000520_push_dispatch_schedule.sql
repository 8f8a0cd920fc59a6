-- Hosted push dispatch (issue 20). On a Supabase project nothing LISTENs to 'push_notifications'
-- (the local stack's push worker does), so pg_cron looks every 5 seconds whether a notification is
-- due and only then POSTs to the push-dispatch function through pg_net, with the project URL and
-- key from Vault — the same setup as the AI reply worker (20261123000300_ai_reply_schedule.sql,
-- Supabase's "Scheduling Edge Functions" guide). The check runs inside the database, so an idle
-- project makes no function calls. Latency: the delay D plus at most 5 s.
-- Harmless without pg_cron / pg_net (the local stack); run `select private.schedule_push_dispatch();`
-- once if they were enabled after this migration ran.

-- POSTs to <project_url>/functions/v1/push-dispatch; null when pg_net or the Vault secrets are missing.
create function private.invoke_push_dispatch() returns bigint
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_url text;
  v_key text;
  v_id bigint;
begin
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null
     or to_regclass('vault.decrypted_secrets') is null then
    return null;
  end if;
  execute $q$select max(decrypted_secret) filter (where name = 'project_url'),
                    max(decrypted_secret) filter (where name = 'service_role_key')
               from vault.decrypted_secrets where name in ('project_url', 'service_role_key')$q$
    into v_url, v_key;
  if v_url is null or v_key is null then
    return null;
  end if;
  execute $q$select net.http_post(url := $1, body := '{}'::jsonb, params := '{}'::jsonb,
                                  headers := $2, timeout_milliseconds := 30000)$q$
    into v_id
    using rtrim(v_url, '/') || '/functions/v1/push-dispatch',
          jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_key);
  return v_id;
end $$;
revoke all on function private.invoke_push_dispatch() from public, anon, authenticated, service_role;

-- The cron tick: a call only when something is due (pending and due, or a lease run out).
create function private.push_dispatch_tick() returns bigint
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.push_notifications n
              where n.status in ('pending', 'running') and n.due_at <= now() and n.attempts < 5) then
    return private.invoke_push_dispatch();
  end if;
  return null;
end $$;
revoke all on function private.push_dispatch_tick() from public, anon, authenticated, service_role;

create function private.schedule_push_dispatch() returns text
language plpgsql volatile set search_path = ''
as $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null then
    return 'skipped: pg_cron is not enabled';
  end if;
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null then
    return 'skipped: pg_net is not enabled';
  end if;
  execute $q$select cron.schedule('push-dispatch', '5 seconds', 'select private.push_dispatch_tick()')$q$;
  return 'scheduled: push-dispatch every 5 seconds';
end $$;
revoke all on function private.schedule_push_dispatch() from public, anon, authenticated, service_role;

select private.schedule_push_dispatch();

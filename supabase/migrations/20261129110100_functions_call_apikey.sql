-- The database's calls to Edge Functions (the AI worker's wake-up and sweep, push-dispatch) carry the
-- key from Vault on the `apikey` header as well as the Bearer (issue 41 part 1). Supabase: "The new
-- secret keys aren't JWTs, so they're rejected [on Authorization: Bearer]. Send the secret key on the
-- apikey header instead" (docs getting-started/migrating-to-new-api-keys, "Database Webhooks and
-- pg_net"), and a new key in Authorization passes the gateway only when it "exactly equals the
-- apikey header" (docs getting-started/api-keys, known limitations). Both headers with the same key is
-- what supabase-js sends, so it holds under either reading and for the legacy service_role key too;
-- the functions take the secret key from either header (ai-reply-worker/service-caller.ts).
-- One function builds the call for both (before, two copies of it), the two names stay as callers.

-- POSTs {} to <project_url>/functions/v1/<p_name> with the key from Vault; the pg_net request id, or
-- null when pg_net or the Vault secrets are missing. pg_net sends after commit.
create function private.invoke_edge_function(p_name text, p_timeout_ms integer) returns bigint
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
                                  headers := $2, timeout_milliseconds := $3)$q$
    into v_id
    using rtrim(v_url, '/') || '/functions/v1/' || p_name,
          jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_key, 'apikey', v_key),
          p_timeout_ms;
  return v_id;
end $$;
revoke all on function private.invoke_edge_function(text, integer) from public, anon, authenticated, service_role;

create or replace function private.invoke_ai_reply_worker() returns bigint
language sql volatile security definer set search_path = ''
as $$ select private.invoke_edge_function('ai-reply-worker', 55000) $$;
revoke all on function private.invoke_ai_reply_worker() from public, anon, authenticated, service_role;

create or replace function private.invoke_push_dispatch() returns bigint
language sql volatile security definer set search_path = ''
as $$ select private.invoke_edge_function('push-dispatch', 30000) $$;
revoke all on function private.invoke_push_dispatch() from public, anon, authenticated, service_role;

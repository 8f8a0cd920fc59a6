-- Rate limits of the public auth-link function (issue 16 item 3). They live in the database, not in
-- the function's memory, because on Supabase every request may run in another isolate. The function
-- asks before it creates or mails anything; a refused request is not counted and creates nothing.
-- Keys: the client's address (first hop of X-Forwarded-For as the edge or the local functions host
-- sets it) and the e-mail (stored as an md5 of the lower-cased address, not in clear). Rows older than
-- two windows are deleted on the way, so the table holds at most the recent attempts.
create table private.auth_link_attempts (
  id bigint generated always as identity primary key,
  key text not null,
  created_at timestamptz not null default now()
);
create index auth_link_attempts_key_idx on private.auth_link_attempts (key, created_at);
create index auth_link_attempts_created_idx on private.auth_link_attempts (created_at);

-- auth_link_take: null when the attempt is allowed (and then counted for both keys), else which limit
-- refused it: 'client' or 'email'. Serialised per key with transaction advisory locks, always client
-- before e-mail (two lock classes), so a burst of parallel calls cannot all slip under a limit and two
-- callers never wait on each other in a cycle.
create function public.auth_link_take(
  p_client text, p_email text, p_client_limit int, p_email_limit int, p_window_seconds int
) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_client text := 'c:' || left(coalesce(p_client, 'unknown'), 100);
  v_email text := 'e:' || md5(lower(coalesce(p_email, '')));
  v_window interval := make_interval(secs => greatest(p_window_seconds, 1));
begin
  perform pg_advisory_xact_lock(1166, hashtext(v_client));
  perform pg_advisory_xact_lock(1167, hashtext(v_email));
  -- Housekeeping that never waits on a parallel caller: rows another transaction is deleting are skipped.
  delete from private.auth_link_attempts where id in (
    select id from private.auth_link_attempts where created_at < now() - 2 * v_window
     order by created_at limit 200 for update skip locked);
  if (select count(*) from private.auth_link_attempts where key = v_client and created_at > now() - v_window) >= p_client_limit then
    return 'client';
  end if;
  if (select count(*) from private.auth_link_attempts where key = v_email and created_at > now() - v_window) >= p_email_limit then
    return 'email';
  end if;
  insert into private.auth_link_attempts (key) values (v_client), (v_email);
  return null;
end $$;

revoke all on table private.auth_link_attempts from public, anon, authenticated;
revoke all on function public.auth_link_take(text, text, int, int, int) from public, anon, authenticated;
grant execute on function public.auth_link_take(text, text, int, int, int) to service_role;

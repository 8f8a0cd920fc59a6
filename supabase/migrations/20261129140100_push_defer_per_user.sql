-- Issue 36 N3: a per-user cap on notifications in flight (sync/SPEC.md R10.18). The senders
-- (supabase/functions/_shared/push/per-user.ts, the local push worker and the hosted push-dispatch)
-- send at most a few notifications of one user at once; a claimed notification over that cap is
-- handed back to the queue with this function instead of waiting in the sender, so it holds no send
-- slot meanwhile. Handing back is not an attempt: nothing was sent, the attempt the claim counted is
-- given back, and the notification is due again after p_seconds (the claim orders by due_at, so other
-- users' notifications that were due earlier come first).
create function public.defer_push_notifications(p_ids uuid[], p_seconds numeric default 1) returns void
language sql volatile security definer set search_path = ''
as $$
  update public.push_notifications
     set status = 'pending', attempts = greatest(attempts - 1, 0), locked_by = null,
         due_at = now() + make_interval(secs => least(greatest(coalesce(p_seconds, 1), 0), 60)),
         updated_at = now()
   where id = any(p_ids) and status = 'running'
$$;
revoke all on function public.defer_push_notifications(uuid[], numeric) from public, anon, authenticated;
grant execute on function public.defer_push_notifications(uuid[], numeric) to service_role;

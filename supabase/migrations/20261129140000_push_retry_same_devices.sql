-- Issue 36 N3: a retry goes only to the devices its first attempt chose (sync/SPEC.md R10.17).
-- claim_push_notifications (20261124000510) records every device of the user in push_deliveries at
-- each claim, with `on conflict do nothing` so no device is notified twice; but a retry's claim also
-- added the devices subscribed since the first attempt, so a member who kept subscribing devices
-- (each a slot in every later retry, each up to the send timeout when it does not answer) made every
-- retry of every notification wider. Now the devices are fixed at the first claim: a delivery row for
-- a notification that has already been attempted is not inserted (the row is skipped, so the claim
-- carries on as before with the devices it had). A device subscribed later gets the next message's
-- notification, as it would have had it subscribed a moment after this one was sent.
create function private.tg_push_deliveries_first_attempt_only() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if exists (select 1 from public.push_notifications n where n.id = NEW.notification_id and n.attempts > 0) then
    return null;
  end if;
  return NEW;
end $$;
revoke all on function private.tg_push_deliveries_first_attempt_only() from public;
-- The claim runs as its owner; server code writing deliveries directly does so as service_role.
grant execute on function private.tg_push_deliveries_first_attempt_only() to service_role;

create trigger t05_first_attempt_only before insert on public.push_deliveries
  for each row execute function private.tg_push_deliveries_first_attempt_only();

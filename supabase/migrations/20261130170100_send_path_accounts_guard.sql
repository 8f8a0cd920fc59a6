-- Issue 41 part 3, cut 2 of six (20261130170000 says how a send's instructions were measured and
-- where they went); same rules.

-- ---------------------------------------------------------------------------------------------------
-- 2. accounts.t10_guard_update without its WHEN clause: every send's counter bump (change_seq,
--    last_activity_at, by the SECURITY DEFINER numbering trigger) matches its column list, so PostgreSQL
--    rebuilt the WHEN from the catalog's node text and evaluated it, always false there: 0.06 M a send
--    (0.03 M net: the guard is now called for it and returns at once).
--    The guard now makes the same test first (TG_NAME: only this trigger; t10_guard on INSERT and
--    t10_guard_update_plan, which wants a caller that is not an API client, go on as before): an API
--    client's UPDATE reaches the refusals exactly as before; anyone else's passes unchanged.

CREATE OR REPLACE FUNCTION private.tg_accounts_guard()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_code text;
  v_id uuid;
begin
  -- t10_guard_update fires for every UPDATE of its columns (the server's counter bumps included) and
  -- guards API clients only: this was its WHEN clause (see above).
  if TG_NAME = 't10_guard_update' and current_user not in ('authenticated', 'anon') then
    return NEW;
  end if;
  if TG_OP = 'UPDATE' and (current_user in ('authenticated', 'anon')) then
    if (to_jsonb(NEW) - 'name' - 'owner_email' - 'plan' - 'plan_id' - 'specialists_mode' - 'updated_at')
       is distinct from (to_jsonb(OLD) - 'name' - 'owner_email' - 'plan' - 'plan_id' - 'specialists_mode' - 'updated_at') then
      raise exception 'Only name, owner_email, plan and specialists_mode can be changed' using errcode = '42501';
    end if;
  end if;

  if TG_OP = 'INSERT' and NEW.plan_id is null
     or TG_OP = 'UPDATE' and NEW.plan is distinct from OLD.plan and NEW.plan_id is not distinct from OLD.plan_id then
    -- The code changed (or a new account names only its code): plan_id follows it.
    select p.id into v_id from public.plans p where p.code = NEW.plan;
    if v_id is null then
      raise exception 'invalid plan code: %', NEW.plan using errcode = '22023';
    end if;
    NEW.plan_id := v_id;
  elsif TG_OP = 'INSERT' or NEW.plan_id is distinct from OLD.plan_id then
    -- plan_id given or changed: the code follows it; an update naming two different plans is refused.
    select p.code into v_code from public.plans p where p.id = NEW.plan_id;
    if v_code is null then
      raise exception 'invalid plan id: %', NEW.plan_id using errcode = '22023';
    end if;
    if TG_OP = 'UPDATE' and NEW.plan is distinct from OLD.plan and NEW.plan is distinct from v_code then
      raise exception 'plan % and plan_id % name different plans', NEW.plan, NEW.plan_id using errcode = '22023';
    end if;
    NEW.plan := v_code;
  end if;

  if TG_OP = 'UPDATE' and (NEW.name, NEW.owner_email, NEW.plan, NEW.plan_id, NEW.specialists_mode)
       is distinct from (OLD.name, OLD.owner_email, OLD.plan, OLD.plan_id, OLD.specialists_mode) then
    NEW.updated_at := now();
  end if;
  return NEW;
end $function$;


drop trigger t10_guard_update on public.accounts;
create trigger t10_guard_update before update of name, owner_email, plan, plan_id, specialists_mode, change_seq, created_at, id, last_activity_at
  on public.accounts for each row execute function private.tg_accounts_guard();

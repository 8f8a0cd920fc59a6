-- Every write a super admin makes while impersonating lands in audit_log, whatever the path
-- (table calls through PostgREST or RPCs). Only the statement's own rows are recorded
-- (pg_trigger_depth() = 1): follow-up writes of our triggers, such as a conversation's
-- last_message_at after a message, are consequences rather than acts of the admin.

create function private.tg_audit_impersonated_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_impersonated uuid;
  v_row jsonb;
  v_details jsonb;
begin
  if v_uid is null or pg_trigger_depth() > 1 then
    return null;
  end if;
  select i.account_id into v_impersonated
    from public.impersonations i
    join public.app_users u on u.user_id = i.admin_user_id and u.role = 'super_admin'
   where i.admin_user_id = v_uid;
  if v_impersonated is null then
    return null;
  end if;

  v_row := case when TG_OP = 'DELETE' then to_jsonb(OLD) else to_jsonb(NEW) end;
  v_details := case TG_OP
    when 'INSERT' then jsonb_build_object('new', v_row)
    when 'DELETE' then jsonb_build_object('old', v_row)
    else jsonb_build_object(
      'changed', (select coalesce(jsonb_object_agg(n.key, n.value), '{}'::jsonb)
                    from jsonb_each(v_row) n
                   where n.value is distinct from to_jsonb(OLD) -> n.key))
  end || jsonb_build_object('impersonated_account_id', v_impersonated);

  insert into public.audit_log (actor_user_id, account_id, action, table_name, row_id, details)
  values (
    v_uid,
    case TG_TABLE_NAME
      when 'accounts' then (v_row ->> 'id')::uuid
      when 'chatwoot_config' then null -- its account_id is Chatwoot's numeric account
      else (v_row ->> 'account_id')::uuid
    end,
    'impersonated.' || lower(TG_OP),
    TG_TABLE_NAME,
    coalesce(v_row ->> 'id', v_row ->> 'conversation_id', v_row ->> 'specialist_id'),
    v_details);
  return null;
end $$;

create trigger t70_audit_impersonation after insert or update or delete on public.conversations
  for each row execute function private.tg_audit_impersonated_write();
create trigger t70_audit_impersonation after insert or update or delete on public.messages
  for each row execute function private.tg_audit_impersonated_write();
create trigger t70_audit_impersonation after insert or update or delete on public.read_cursors
  for each row execute function private.tg_audit_impersonated_write();
create trigger t70_audit_impersonation after insert or update or delete on public.account_specialists
  for each row execute function private.tg_audit_impersonated_write();
create trigger t70_audit_impersonation after update of name, owner_email, plan, plan_id, specialists_mode
  on public.accounts for each row execute function private.tg_audit_impersonated_write();
create trigger t70_audit_impersonation after insert or update or delete on public.chatwoot_config
  for each row execute function private.tg_audit_impersonated_write();

revoke all on function private.tg_audit_impersonated_write() from public;

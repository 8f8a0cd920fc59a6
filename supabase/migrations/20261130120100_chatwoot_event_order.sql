-- Chatwoot's webhook events applied by their own time, not by their arrival (issue 39, sync/SPEC.md
-- R14.9). Chatwoot posts each event once, from a background job, with no ordering between
-- deliveries (reference/chatwoot.md "Webhooks": 5 s timeout, no retries): a resolve can arrive before
-- the agent's reply that preceded it, or a late assignment after a resolve. Applied in arrival order
-- the older event overwrote the newer state; worst case a conversation Chatwoot had handed back to
-- the AI stayed 'human' (the AI silent for good), or one a human had taken went back to the AI.
--
-- The event's time: the conversation's updated_at that every event carries (Chatwoot
-- Conversations::EventDataPresenter#push_timestamps, `updated_at: updated_at.to_f`, at the top level
-- of conversation_* events and under `conversation` in message events; a message write touches its
-- conversation, app/models/message.rb `belongs_to :conversation, touch: true`). So one clock orders
-- all events of a conversation as Chatwoot made them.
--
-- Per conversation and subject ('state': its status and owner; 'message:<chatwoot id>': that
-- message's text) the newest applied time is kept here, out of the synced rows. An event older than
-- it is not applied (the webhook records it as stale); an equal one is (a repeated delivery changes
-- nothing anyway); an event without a time (a Chatwoot that does not send it) is applied in arrival
-- order as before and does not move the clock.
create table private.chatwoot_event_clock (
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  subject text not null check (subject = 'state' or subject ~ '^message:[0-9]+$'),
  applied_at timestamptz not null,
  primary key (conversation_id, subject)
);
revoke all on table private.chatwoot_event_clock from public, anon, authenticated, service_role;

-- True when p_at is not older than the subject's clock, which then moves to p_at. The clock row's
-- lock (the upsert's) serialises two deliveries of one subject until the caller's transaction ends.
create function private.chatwoot_event_fresh(p_conversation_id uuid, p_subject text, p_at timestamptz)
returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_fresh boolean;
begin
  if p_at is null then
    return true;
  end if;
  insert into private.chatwoot_event_clock as k (conversation_id, subject, applied_at)
  values (p_conversation_id, p_subject, p_at)
  on conflict (conversation_id, subject) do update set applied_at = excluded.applied_at
   where k.applied_at <= excluded.applied_at
  returning true into v_fresh;
  return coalesce(v_fresh, false);
end $$;
revoke all on function private.chatwoot_event_fresh(uuid, text, timestamptz) from public, anon, authenticated, service_role;

-- A conversation event's status (ours: 'active' | 'completed', or null) and owner change (R14.5;
-- null for none), applied together when the event is not older than the last one applied: 'applied'
-- or 'stale'. Locks: the clock first (only webhook deliveries take it), then the owner change takes
-- the open AI jobs and the conversation in R14.3's order, and the status update finds the
-- conversation already locked (a status alone locks just the conversation, as any update does).
create function public.chatwoot_apply_state(
  p_conversation_id uuid, p_at timestamptz, p_status text, p_owner_state text, p_agent_name text default null)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if p_status is not null and p_status not in ('active', 'completed') then
    raise exception 'Unknown status %', p_status using errcode = '22023';
  end if;
  if not exists (select 1 from public.conversations c where c.id = p_conversation_id) then
    perform private.raise_not_found('Conversation not found');
  end if;
  if not private.chatwoot_event_fresh(p_conversation_id, 'state', p_at) then
    return 'stale';
  end if;
  if p_owner_state is not null then
    perform private.set_conversation_owner(p_conversation_id, p_owner_state, p_agent_name);
  end if;
  if p_status is not null then
    update public.conversations set status = p_status where id = p_conversation_id and status <> p_status;
  end if;
  return 'applied';
end $$;

-- message_updated: the stored copy of a Chatwoot message takes the event's text, type and payload
-- unless a newer update of it was applied: 'updated', 'stale', or 'missing' (not stored yet: the
-- webhook stores it as a new message).
create function public.chatwoot_update_message(
  p_conversation_id uuid, p_chatwoot_message_id bigint, p_at timestamptz, p_text text, p_type text, p_payload jsonb)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  select m.id into v_id from public.messages m
   where m.conversation_id = p_conversation_id and m.chatwoot_message_id = p_chatwoot_message_id
   for update;
  if v_id is null then
    -- The clock still moves: the insert that follows stores this event's content.
    perform private.chatwoot_event_fresh(p_conversation_id, 'message:' || p_chatwoot_message_id, p_at);
    return 'missing';
  end if;
  if not private.chatwoot_event_fresh(p_conversation_id, 'message:' || p_chatwoot_message_id, p_at) then
    return 'stale';
  end if;
  update public.messages set text = p_text, type = p_type, payload = p_payload where id = v_id;
  return 'updated';
end $$;

revoke all on function public.chatwoot_apply_state(uuid, timestamptz, text, text, text) from public, anon, authenticated;
revoke all on function public.chatwoot_update_message(uuid, bigint, timestamptz, text, text, jsonb) from public, anon, authenticated;
grant execute on function public.chatwoot_apply_state(uuid, timestamptz, text, text, text) to service_role;
grant execute on function public.chatwoot_update_message(uuid, bigint, timestamptz, text, text, jsonb) to service_role;

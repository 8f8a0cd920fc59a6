// Who owns a conversation after a Chatwoot webhook event (issue 39, sync/SPEC.md R14.5). Pure
// mapping; webhook-order.ts applies it with the event's status through chatwoot_apply_state, which
// keeps the newest event's state (R14.9) and moves the owner as set_conversation_owner does
// (migration 20261128120000_conversation_owner.sql: the AI's jobs cancelled on a takeover).
//   R14.5a an agent's reply (message_created, outgoing, not private, sender type 'user') → 'human'
//          with the agent's name; a bot or our own AI echo is not a human;
//   R14.5b an assignment (conversation_updated whose changed_attributes name assignee_id, with
//          meta.assignee set) → 'human' with the assignee's name; an unassignment changes nothing
//          (a human had it; only a resolve hands it back);
//   R14.5c resolved → 'ai' (handed back; our conversation is completed by the status mapping);
//   R14.5d reopened (open or pending while ours was completed) → 'human' with the assignee's name,
//          or 'waiting' when nobody is assigned.
// Payload shapes: Chatwoot's message and conversation webhook_data (sender {name, type} for users;
// meta.assignee as the user's push data), as tests/doubles/chatwoot/hook-payloads.ts reproduces them.
import type { ChatwootWebhook } from './webhook-map.ts';

export type OwnerChange = { state: 'human'; agentName: string | null } | { state: 'waiting' } | { state: 'ai' };

interface OwnerFields {
  sender?: { name?: unknown; type?: unknown } | null;
  meta?: { assignee?: { name?: unknown } | null } | null;
  conversation?: { meta?: { assignee?: { name?: unknown } | null } | null } | null;
  changed_attributes?: unknown;
}

const nameOf = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 200) : null);

function assigneeName(w: OwnerFields): string | null {
  return nameOf(w.meta?.assignee?.name ?? w.conversation?.meta?.assignee?.name);
}

function changed(w: OwnerFields, key: string): boolean {
  const list = Array.isArray(w.changed_attributes) ? (w.changed_attributes as unknown[]) : [];
  return list.some((c) => c !== null && typeof c === 'object' && key in c);
}

/** The owner change an event asks for, or null. previousStatus is our conversation's status before. */
export function ownerChange(body: ChatwootWebhook, event: string, previousStatus: string): OwnerChange | null {
  const w = body as ChatwootWebhook & OwnerFields;
  if (event === 'message_created') {
    const outgoing = w.message_type === 1 || w.message_type === 'outgoing';
    if (!outgoing || w.private || w.sender?.type !== 'user') return null;
    return { state: 'human', agentName: nameOf(w.sender?.name) };
  }
  if (event !== 'conversation_updated' && event !== 'conversation_status_changed') return null;
  const status = body.status ?? body.conversation?.status;
  if (status === 'resolved') return { state: 'ai' };
  if ((status === 'open' || status === 'pending') && previousStatus === 'completed') {
    const name = assigneeName(w);
    return name ? { state: 'human', agentName: name } : { state: 'waiting' };
  }
  if (event === 'conversation_updated' && changed(w, 'assignee_id')) {
    const name = assigneeName(w);
    return name ? { state: 'human', agentName: name } : null;
  }
  return null;
}

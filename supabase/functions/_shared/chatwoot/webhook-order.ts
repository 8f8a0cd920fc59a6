// Chatwoot's webhook events by their own time (issue 39, sync/SPEC.md R14.9; migration
// 20261130120100_chatwoot_event_order.sql). Deliveries are unordered, so each event's state is
// applied only when it is not older than the last one applied for the same conversation (status and
// owner) or message (text): the database keeps the clock and decides under its locks.
import type { Db } from '../clients.ts';
import type { ChatwootWebhook } from './webhook-map.ts';
import type { OwnerChange } from './webhook-owner.ts';

/** The event's time as an ISO string, or null when the payload has none: the conversation's
 *  updated_at, which Chatwoot sends as epoch seconds with a fraction (Conversations::EventDataPresenter
 *  #push_timestamps, `updated_at: updated_at.to_f`), at the top level of conversation_* events and
 *  under `conversation` in message events (a message write touches its conversation). */
export function eventTime(w: ChatwootWebhook, event: string): string | null {
  const conv = w.conversation as { updated_at?: unknown } | undefined;
  const raw = event.startsWith('conversation_') ? (w as { updated_at?: unknown }).updated_at : conv?.updated_at;
  if (typeof raw === 'number' && Number.isFinite(raw) && raw > 0) return new Date(Math.round(raw * 1000)).toISOString();
  if (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(raw) && Number.isFinite(Date.parse(raw))) return new Date(Date.parse(raw)).toISOString();
  return null;
}

/** Status (ours) and owner change of one event, applied together unless the event is older than
 *  the last applied: 'applied' | 'stale', or the database's error message. */
export async function applyState(
  db: Db,
  conversationId: string,
  at: string | null,
  status: 'active' | 'completed' | null,
  owner: OwnerChange | null,
): Promise<{ outcome: 'applied' | 'stale' } | { error: string }> {
  const r = await db.rpc('chatwoot_apply_state', {
    p_conversation_id: conversationId,
    p_at: at,
    p_status: status,
    p_owner_state: owner?.state ?? null,
    p_agent_name: owner?.state === 'human' ? owner.agentName : null,
  });
  if (r.error) return { error: r.error.message };
  return { outcome: r.data === 'stale' ? 'stale' : 'applied' };
}

// R6.8: another device's relayed send (transports/relay.ts) as the transient copy an open chat paints,
// and its withdrawal as the key of the copy to drop. Pure. The payload comes from the user's own devices only (the topic's rule), but it is still
// checked field by field: whatever fails a check is dropped, nothing of it is stored anywhere.
import { correlationKey, optimisticMessage } from '../merge/message.ts';
import type { LocalMessage } from '../model/local-types.ts';
import { isUuid } from '../model/ids.ts';
import { normalizeTimestamp } from '../model/timestamps.ts';
import type { RelayedSend, RelayedWithdrawal } from '../transports/relay.ts';

/** Longer texts are not relayed (they go by the server's row alone); a broadcast stays small. */
export const RELAY_MAX_TEXT = 8000;

/** What a send tells the user's other devices, or null when it is not relayed (a payload, a long text). */
export function relayedSend(input: {
  accountId: string | null;
  conversationId: string;
  correlationId: string;
  text: string;
  payload: unknown;
  serverNowMs: number;
}): RelayedSend | null {
  if (input.accountId === null || input.payload !== null || input.text.length > RELAY_MAX_TEXT) return null;
  return {
    v: 1,
    account_id: input.accountId,
    conversation_id: input.conversationId,
    client_correlation_id: input.correlationId.toLowerCase(),
    text: input.text,
    created_at: new Date(input.serverNowMs).toISOString(),
  };
}

/** What a send the server refused tells the user's other devices (they drop its copy), or null. */
export function relayedWithdrawal(accountId: string | null, correlationId: string): RelayedWithdrawal | null {
  if (accountId === null || !isUuid(correlationId)) return null;
  return { v: 1, account_id: accountId, client_correlation_id: correlationId.toLowerCase() };
}

/** The key of the copy a withdrawal drops (the copy's key is its correlation key), or null when malformed. */
export function withdrawnKey(payload: unknown, accountId: string | null): string | null {
  if (accountId === null || typeof payload !== 'object' || payload === null) return null;
  const p = payload as Partial<Record<keyof RelayedWithdrawal, unknown>>;
  if (p.v !== 1 || p.account_id !== accountId || !isUuid(p.client_correlation_id)) return null;
  return correlationKey(p.client_correlation_id.toLowerCase());
}

/**
 * The copy of a relayed send to hand an open chat (engine.subscribeArriving), or null when the
 * payload is malformed or of another account than the one this engine acts in. It is the sender's
 * own optimistic row as that device shows it: the user's text message, sending, under the key its
 * stored row will have (the correlation id), so the row replaces it in place.
 */
export function relayedMessage(payload: unknown, accountId: string | null, userId: string): LocalMessage | null {
  if (accountId === null || typeof payload !== 'object' || payload === null) return null;
  const p = payload as Partial<Record<keyof RelayedSend, unknown>>;
  if (p.v !== 1 || p.account_id !== accountId) return null;
  if (!isUuid(p.conversation_id) || !isUuid(p.client_correlation_id)) return null;
  if (typeof p.text !== 'string' || p.text.trim() === '' || p.text.length > RELAY_MAX_TEXT) return null;
  const createdAt = typeof p.created_at === 'string' ? normalizeTimestamp(p.created_at) : null;
  if (createdAt === null) return null;
  return optimisticMessage({
    conversationId: p.conversation_id.toLowerCase(),
    accountId,
    text: p.text,
    correlationId: p.client_correlation_id.toLowerCase(),
    createdAt,
    payload: null,
    userId,
  });
}

// R2.4, R3.1: a server message into the stored form. Pure.
import type { JsonObject } from '../model/json.ts';
import type { LocalMessage, Sender } from '../model/local-types.ts';
import { orderKeyOf } from '../model/ordering.ts';
import type { RemoteMessage } from '../model/remote-types.ts';
import { requireTimestamp, normalizeTimestamp } from '../model/timestamps.ts';

/** R3.1: the same message always gets the same key, so a second delivery overwrites the first. */
export function messageKeyOf(r: Pick<RemoteMessage, 'id' | 'client_correlation_id'>): string {
  return r.client_correlation_id ? `c:${r.client_correlation_id.toLowerCase()}` : `s:${r.id.toLowerCase()}`;
}

export function correlationKey(correlationId: string): string {
  return `c:${correlationId.toLowerCase()}`;
}

/**
 * A user's text message as the sending device shows it before the server has it (R1.2), under the
 * key its stored row will have; also another device's relayed copy of it (R6.8). `correlationId`
 * lower-case, `createdAt` normalized.
 */
export function optimisticMessage(m: {
  conversationId: string;
  accountId: string | null;
  text: string;
  correlationId: string;
  createdAt: string;
  payload: JsonObject | null;
  userId: string;
}): LocalMessage {
  return {
    key: correlationKey(m.correlationId),
    serverId: null,
    conversationId: m.conversationId,
    accountId: m.accountId,
    text: m.text,
    type: 'text',
    direction: 'user',
    source: 'app',
    chatwootMessageId: null,
    createdAt: m.createdAt,
    orderKey: orderKeyOf(m.createdAt, m.correlationId),
    readAt: null,
    payload: m.payload,
    correlationId: m.correlationId,
    senderUserId: m.userId,
    changeSeq: 0,
    state: 'sending',
    origin: 'optimistic',
    error: null,
    confirmedAt: null,
  };
}

/** user-area.md section 3: direction maps to sender user, system or ai. */
export function senderOf(direction: string): Sender {
  if (direction === 'user') return 'user';
  if (direction === 'system') return 'system';
  return 'ai';
}

export function fromRemoteMessage(r: RemoteMessage, key: string): LocalMessage {
  const createdAt = requireTimestamp(r.created_at);
  const id = r.id.toLowerCase();
  return {
    key,
    serverId: id,
    conversationId: r.conversation_id,
    accountId: r.account_id,
    text: r.text ?? '',
    type: r.type,
    direction: r.direction,
    source: r.source,
    chatwootMessageId: r.chatwoot_message_id,
    createdAt,
    orderKey: orderKeyOf(createdAt, id),
    readAt: r.read_at === null ? null : normalizeTimestamp(r.read_at),
    payload: r.payload,
    correlationId: r.client_correlation_id ? r.client_correlation_id.toLowerCase() : null,
    senderUserId: r.sender_user_id,
    changeSeq: r.change_seq,
    state: 'sent',
    origin: 'server',
    error: null,
    confirmedAt: null,
  };
}

/**
 * R2.1/R2.4: the row to store for `remote` given the stored copy with its key, or null when the stored
 * server copy is as new or newer. The stored key is kept so the UI's bubble does not remount.
 */
export function mergeMessage(remote: RemoteMessage, local: LocalMessage | undefined): LocalMessage | null {
  if (local && local.origin === 'server' && local.changeSeq >= remote.change_seq) return null;
  return fromRemoteMessage(remote, local?.key ?? messageKeyOf(remote));
}

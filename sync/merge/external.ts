// R3.3: a message from Chatwoot's socket, shown before its database row arrives. Pure.
import type { LocalMessage } from '../model/local-types.ts';
import { orderKeyOf } from '../model/ordering.ts';
import { timestampFromMs } from '../model/timestamps.ts';
import type { ExternalMessage } from '../transports/transport.ts';

export interface ExternalCandidates {
  /** Our own copy with the event's correlation id (echo_id/source_id). */
  byCorrelation: LocalMessage | undefined;
  /** Anything stored with the event's Chatwoot id already. */
  byExternalId: LocalMessage | undefined;
}

/** The row to write, or null when the message is already shown. */
export function planExternalMessage(ext: ExternalMessage, conversationId: string, c: ExternalCandidates, now: number): LocalMessage | null {
  if (c.byExternalId) return null;
  if (c.byCorrelation) return c.byCorrelation.chatwootMessageId === null ? { ...c.byCorrelation, chatwootMessageId: ext.chatwootMessageId } : null;
  // Our user's own messages are already on screen as optimistic copies; only others' get a copy.
  if (ext.direction === 'user') return null;
  const createdAt = timestampFromMs(ext.createdAtMs || now);
  const key = `x:${ext.chatwootMessageId}`;
  return {
    key,
    serverId: null,
    conversationId,
    accountId: null,
    text: ext.text,
    type: ext.type,
    direction: ext.direction,
    source: 'chatwoot',
    chatwootMessageId: ext.chatwootMessageId,
    createdAt,
    orderKey: orderKeyOf(createdAt, key),
    readAt: null,
    payload: null,
    correlationId: null,
    senderUserId: null,
    changeSeq: 0,
    state: 'sent',
    origin: 'external',
    error: null,
    confirmedAt: now,
  };
}

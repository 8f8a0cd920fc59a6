// The optimistic message and its send entry, written together (R1.1/R1.2). Runs inside the caller's
// transaction (a command's, or push.ts's when request-specialist's conversation has just been made).
import type { SyncDb } from '../db/schema.ts';
import type { JsonObject } from '../json.ts';
import type { LocalMessage } from '../local-types.ts';
import { correlationKey } from '../merge/message.ts';
import { orderKeyOf } from '../ordering.ts';
import { queue } from '../outbox.ts';
import { refreshSummaries } from '../summary-store.ts';
import { msFromTimestamp, timestampFromMs } from '../timestamps.ts';

export interface OptimisticInput {
  conversationId: string;
  text: string;
  correlationId: string;
  payload: JsonObject | null;
  userId: string;
  now: number;
}

/** A local time after every stored message of the conversation, so typed order is shown order. */
function nextLocalTime(last: LocalMessage | undefined, now: number): number {
  const lastMs = last ? msFromTimestamp(last.createdAt) : -Infinity;
  return Math.max(now, lastMs + 1);
}

/**
 * Writes the message, its outbox entry, the typing hint and the summary. Reads that do not depend on
 * each other are issued together (one round trip to the IndexedDB backend each time, not one per
 * read): the send path's time to the request is mostly these round trips (bench row 4c).
 */
export async function writeOptimisticMessage(db: SyncDb, input: OptimisticInput): Promise<LocalMessage> {
  const correlationId = input.correlationId.toLowerCase();
  const [last, conversation, clock] = await Promise.all([
    db.messages.where('[conversationId+orderKey]').between([input.conversationId, ''], [input.conversationId, '\uffff']).last(),
    db.conversations.get(input.conversationId),
    db.meta.get('clock'),
  ]);
  // R9.11: the message's time on the server's clock (the offset the engine learnt), so it sorts and
  // reads right on a device whose clock is off; the outbox and typing keep device time.
  const offsetMs = clock?.key === 'clock' ? clock.offsetMs : 0;
  const createdAt = timestampFromMs(nextLocalTime(last, input.now + offsetMs));
  const message: LocalMessage = {
    key: correlationKey(correlationId),
    serverId: null,
    conversationId: input.conversationId,
    accountId: null,
    text: input.text,
    type: 'text',
    direction: 'user',
    source: 'app',
    chatwootMessageId: null,
    createdAt,
    orderKey: orderKeyOf(createdAt, correlationId),
    readAt: null,
    payload: input.payload,
    correlationId,
    senderUserId: input.userId,
    changeSeq: 0,
    state: 'sending',
    origin: 'optimistic',
    error: null,
    confirmedAt: null,
  };
  await Promise.all([
    db.messages.put(message),
    queue(
      db,
      {
        kind: 'send',
        conversationId: input.conversationId,
        correlationId,
        messageKey: message.key,
        text: input.text,
        payload: input.payload,
        accountId: conversation?.accountId ?? null,
      },
      input.now,
    ),
    conversation?.specialist?.isAi ? db.typing.put({ conversationId: input.conversationId, startedAt: input.now }) : undefined,
  ]);
  await refreshSummaries(db, [input.conversationId]);
  return message;
}

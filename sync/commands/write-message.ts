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
async function nextLocalTime(db: SyncDb, conversationId: string, now: number): Promise<number> {
  const last = await db.messages.where('[conversationId+orderKey]').between([conversationId, ''], [conversationId, '\uffff']).last();
  const lastMs = last ? msFromTimestamp(last.createdAt) : -Infinity;
  return Math.max(now, lastMs + 1);
}

export async function writeOptimisticMessage(db: SyncDb, input: OptimisticInput): Promise<LocalMessage> {
  const correlationId = input.correlationId.toLowerCase();
  const createdAt = timestampFromMs(await nextLocalTime(db, input.conversationId, input.now));
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
  await db.messages.put(message);
  await queue(
    db,
    { kind: 'send', conversationId: input.conversationId, correlationId, messageKey: message.key, text: input.text, payload: input.payload },
    input.now,
  );
  const conversation = await db.conversations.get(input.conversationId);
  if (conversation?.specialist?.isAi) await db.typing.put({ conversationId: input.conversationId, startedAt: input.now });
  await refreshSummaries(db, [input.conversationId]);
  return message;
}

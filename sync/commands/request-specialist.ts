// R1.10: request a (human) specialist: the text 'Mám záujem o vytvorenie projektu s {name}' goes to
// the assistant's conversation; when the account has none yet, it is started first and the message
// waits in the start entry (in IndexedDB, invariant 1) until the conversation exists.
import { ASSISTANT_SPECIALIST_ID } from '../model/constants.ts';
import { queue } from '../send/outbox.ts';
import { REQUEST_SPECIALIST_PREFIX, TEXT_REQUEST_NO_ACCOUNT } from '../model/texts.ts';
import type { CommandContext } from './context.ts';
import { waitForResult, type StartOutcome } from './results.ts';
import { writeOptimisticMessage } from '../send/optimistic-message.ts';

export interface RequestSpecialistInput {
  name: string;
}

export interface PendingRequest {
  /** Known at once when the assistant conversation already exists. */
  conversationId: string | null;
  done: Promise<StartOutcome>;
}

export async function requestSpecialist(ctx: CommandContext, input: RequestSpecialistInput): Promise<PendingRequest> {
  if (ctx.accountId() === null) throw new Error(TEXT_REQUEST_NO_ACCOUNT);
  const text = `${REQUEST_SPECIALIST_PREFIX}${input.name}`;
  const { db } = ctx;
  const requestId = ctx.newId();
  const correlationId = ctx.newId();
  const existing = await db.transaction('rw', db.syncTables, async () => {
    const assistant = await db.conversations.where('specialistId').equals(ASSISTANT_SPECIALIST_ID).first();
    if (assistant) {
      await writeOptimisticMessage(db, { conversationId: assistant.id, text, correlationId, payload: null, userId: ctx.userId, now: ctx.now() });
      return assistant.id;
    }
    await queue(
      db,
      { kind: 'start', requestId, specialistId: ASSISTANT_SPECIALIST_ID, cardId: null, welcomeText: null, thenSend: { correlationId, text } },
      ctx.now(),
    );
    return null;
  });
  ctx.notify();
  if (existing !== null) return { conversationId: existing, done: Promise.resolve({ conversationId: existing, created: false }) };
  return { conversationId: null, done: waitForResult(db, requestId) };
}

// R1.10: startConversation and ensureFirstConversation queue a request; `done` settles with the
// server's {conversationId, created} or rejects with the spec's text when refused for good.
import { queue } from '../send/outbox.ts';
import type { CommandContext } from './context.ts';
import { waitForResult, type StartOutcome } from './results.ts';

export interface StartInput {
  specialistId: string;
  cardId?: string | null;
  welcomeText?: string | null;
}

export interface PendingStart {
  requestId: string;
  done: Promise<StartOutcome>;
}

export async function startConversation(ctx: CommandContext, input: StartInput): Promise<PendingStart> {
  const requestId = ctx.newId();
  const { db } = ctx;
  await db.transaction('rw', db.outbox, () =>
    queue(db, { kind: 'start', requestId, specialistId: input.specialistId, cardId: input.cardId ?? null, welcomeText: input.welcomeText ?? null, thenSend: null }, ctx.now()),
  );
  ctx.notify();
  return { requestId, done: waitForResult(db, requestId) };
}

export async function ensureFirstConversation(ctx: CommandContext): Promise<PendingStart> {
  const requestId = ctx.newId();
  const { db } = ctx;
  await db.transaction('rw', db.outbox, () => queue(db, { kind: 'ensure-first', requestId }, ctx.now()));
  ctx.notify();
  return { requestId, done: waitForResult(db, requestId) };
}

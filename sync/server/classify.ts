// R1.3/R1.4: which failures are worth retrying. Network failures, timeouts, rate limits, an expired
// token (the auth client refreshes it) and server errors are transient; every other 4xx is the
// server's final answer.
import { ServerError, type ErrorKind } from './api.ts';

export function kindOfStatus(status: number | null | undefined): ErrorKind {
  if (status === null || status === undefined || status === 0) return 'transient';
  if (status >= 500 || status === 401 || status === 408 || status === 425 || status === 429) return 'transient';
  return status >= 400 ? 'permanent' : 'transient';
}

/**
 * R9.8: `send_message` says a conversation is of another account than the one the caller acts in
 * (a super admin whose impersonation switched on the server before this engine switched; migration
 * 20261124001000). Not a final answer: the entry waits and goes out once the engine acts there again.
 */
export const CONVERSATION_IN_OTHER_ACCOUNT = 'Conversation is in another account';

export function serverErrorFromStatus(status: number | null | undefined, message: string, details: string | null = null): ServerError {
  const kind = status === 409 && message === CONVERSATION_IN_OTHER_ACCOUNT ? 'transient' : kindOfStatus(status);
  return new ServerError(kind, message, status ?? null, details);
}

/** R9.8: the account a 409 'Conversation is in another account' names (its `details`), else null. */
export function otherAccountOf(err: unknown): string | null {
  if (!(err instanceof ServerError) || err.status !== 409 || err.message !== CONVERSATION_IN_OTHER_ACCOUNT) return null;
  return err.details && /^[0-9a-f-]{36}$/i.test(err.details) ? err.details.toLowerCase() : null;
}

/** Anything thrown that is not already a ServerError (fetch TypeError, aborts) is a network problem. */
export function toServerError(err: unknown): ServerError {
  if (err instanceof ServerError) return err;
  return new ServerError('transient', err instanceof Error ? err.message : String(err), null);
}

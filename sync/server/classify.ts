// R1.3/R1.4: which failures are worth retrying. Network failures, timeouts, rate limits, an expired
// token (the auth client refreshes it) and server errors are transient; every other 4xx is the
// server's final answer.
import { ServerError, type ErrorKind } from './api.ts';

export function kindOfStatus(status: number | null | undefined): ErrorKind {
  if (status === null || status === undefined || status === 0) return 'transient';
  if (status >= 500 || status === 401 || status === 408 || status === 425 || status === 429) return 'transient';
  return status >= 400 ? 'permanent' : 'transient';
}

export function serverErrorFromStatus(status: number | null | undefined, message: string): ServerError {
  return new ServerError(kindOfStatus(status), message, status ?? null);
}

/** Anything thrown that is not already a ServerError (fetch TypeError, aborts) is a network problem. */
export function toServerError(err: unknown): ServerError {
  if (err instanceof ServerError) return err;
  return new ServerError('transient', err instanceof Error ? err.message : String(err), null);
}

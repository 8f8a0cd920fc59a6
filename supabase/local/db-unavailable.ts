// Tells "PostgreSQL is not reachable right now" apart from real failures, so the stack can answer a
// clean 503 (retry later) instead of a 500 while the database restarts.
const PG_UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown (terminating connection due to administrator command)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
]);
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

export const DB_UNAVAILABLE_MESSAGE = 'The database is not available right now; retry shortly';

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (PG_UNAVAILABLE_CODES.has(code) || NODE_CODES.has(code))) return true;
    if (typeof message === 'string' && /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

// A per-endpoint circuit breaker for push sends (issue 36 N3). A device whose push service did not
// answer at all (timeout, refused or reset connection: web-push's error without a status) is not
// called again for BREAKER_MS: its next notifications fail at once (status 0, a transient failure
// the queue retries after its lease) instead of holding a send slot for the timeout again. Memory per
// process (the local worker, or one push-dispatch instance), bounded to MAX_ENDPOINTS entries.

export const BREAKER_MS = 60_000;
const MAX_ENDPOINTS = 10_000;

const openUntil = new Map<string, number>();

/** True while sends to this endpoint are skipped. */
export function breakerOpen(endpoint: string, now = Date.now()): boolean {
  const until = openUntil.get(endpoint);
  if (until === undefined) return false;
  if (until > now) return true;
  openUntil.delete(endpoint);
  return false;
}

/** The endpoint did not answer: skip it for BREAKER_MS. */
export function tripBreaker(endpoint: string, now = Date.now()): void {
  if (!openUntil.has(endpoint) && openUntil.size >= MAX_ENDPOINTS) {
    const oldest = openUntil.keys().next();
    if (!oldest.done) openUntil.delete(oldest.value);
  }
  openUntil.set(endpoint, now + BREAKER_MS);
}

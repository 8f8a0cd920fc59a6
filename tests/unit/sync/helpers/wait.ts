export async function waitFor<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Spec timings scaled down so engine tests run in real time quickly. */
export const FAST_TIMINGS = {
  tickMs: 30,
  fetchGapMs: 10,
  queuedRefetchMs: 2,
  pollIdleMs: 40,
  pollStartMs: 20,
  pollMaxMs: 100,
  healthIdleMs: 300,
  resubscribeStartMs: 15,
  resubscribeMaxMs: 200,
  statusDebounceMs: 15,
  retryStartMs: 10,
  retryMaxMs: 100,
};

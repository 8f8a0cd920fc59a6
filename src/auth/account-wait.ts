// The callback waits for the new user's account (user-area.md section 9): first attempt after
// 100 ms, then up to 5 retries; the first retry waits 500 ms, each later one 1.2 times the previous
// plus up to 100 ms of jitter, never more than 2 s.
export const ACCOUNT_WAIT = {
  firstAttemptMs: 100,
  retries: 5,
  initialDelayMs: 500,
  growth: 1.2,
  jitterMs: 100,
  capMs: 2000,
} as const;

/** The waits before each attempt: [first attempt, retry 1, …, retry 5]. */
export function accountWaitDelays(random: () => number = Math.random): number[] {
  const delays: number[] = [ACCOUNT_WAIT.firstAttemptMs];
  let delay: number = ACCOUNT_WAIT.initialDelayMs;
  for (let i = 0; i < ACCOUNT_WAIT.retries; i++) {
    delays.push(delay);
    delay = Math.min(ACCOUNT_WAIT.capMs, delay * ACCOUNT_WAIT.growth + random() * ACCOUNT_WAIT.jitterMs);
  }
  return delays;
}

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until lookup yields an account id; null when it never does. Lookup errors count as "not yet". */
export async function waitForAccount(
  lookup: () => Promise<string | null>,
  options: { sleep?: Sleep; random?: () => number; isCancelled?: () => boolean } = {},
): Promise<string | null> {
  const sleep = options.sleep ?? realSleep;
  for (const delay of accountWaitDelays(options.random)) {
    await sleep(delay);
    if (options.isCancelled?.()) return null;
    try {
      const id = await lookup();
      if (id) return id;
    } catch (err) {
      console.warn('account not ready yet:', err);
    }
  }
  return null;
}

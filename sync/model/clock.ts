// Injected time: tests pass fake timers or a scaled clock; the engine never reads Date directly.
export type TimerId = ReturnType<typeof globalThis.setTimeout>;

export interface Clock {
  /** Wall-clock time (ms since the epoch): what timestamps are made of. The user may set it any time. */
  now(): number;
  /**
   * R9.6: time that only moves forward at a steady rate (ms from an arbitrary origin, only
   * comparable within one run of the engine): what waits and retries are measured with, so a wall
   * clock set back or ahead never parks or rushes them. Clocks without it fall back to `now`.
   */
  monotonic?(): number;
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
}

/** Reads the globals at call time, so vi.useFakeTimers() after creation still applies. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => globalThis.performance.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id),
};

/** R9.6: the clock's monotonic time, or its wall time when it has none (fake clocks in tests). */
export function monotonicNow(clock: Clock): number {
  return clock.monotonic ? clock.monotonic() : clock.now();
}

export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/**
 * R9.13: `p`'s value, or `fallback` once `ms` passed without one (`p` goes on, unawaited). The timer
 * is cleared either way, so nothing of it outlives the answer.
 */
export function within<T, F>(clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>, p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: TimerId | undefined;
  const late = new Promise<F>((resolve) => (timer = clock.setTimeout(() => resolve(fallback), ms)));
  return Promise.race([p, late]).finally(() => clock.clearTimeout(timer!));
}

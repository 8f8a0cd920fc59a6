// R6.3: polling, the fallback while realtime is down. It asks for a pull once the engine has been
// idle (no event, no fetch) longer than 5 s, then every 2000 ms × 1.5 up to 15 s; activity resets the
// back-off.
import { monotonicNow, type Clock, type TimerId } from '../model/clock.ts';
import type { Timings } from '../model/constants.ts';
import { statusCell, type Transport } from './transport.ts';

export interface Activity {
  /** Monotonic time (clock.ts, R9.6) of the last event or completed fetch. */
  lastActivityAt: number;
}

export type PollingTimings = Pick<Timings, 'pollIdleMs' | 'pollStartMs' | 'pollFactor' | 'pollMaxMs'>;

export function nextPollDelay(current: number, t: PollingTimings): number {
  return Math.min(current * t.pollFactor, t.pollMaxMs);
}

export function createPollingTransport(clock: Clock, timings: PollingTimings, activity: Activity): Transport {
  const cell = statusCell();
  let timer: TimerId | null = null;
  let delay = timings.pollStartMs;
  let seenActivity = activity.lastActivityAt;

  const schedule = (ms: number) => {
    timer = clock.setTimeout(fire, ms);
  };
  function fire() {
    timer = null;
    if (cell.get() === 'closed') return;
    if (activity.lastActivityAt !== seenActivity) {
      // Something happened since the last poll: start the back-off over.
      seenActivity = activity.lastActivityAt;
      delay = timings.pollStartMs;
    }
    const idle = monotonicNow(clock) - activity.lastActivityAt;
    if (idle < timings.pollIdleMs) {
      schedule(Math.max(timings.pollIdleMs - idle, 1));
      return;
    }
    cell.emit({ kind: 'poll' });
    schedule(delay);
    delay = nextPollDelay(delay, timings);
  }
  return {
    name: 'polling',
    status: cell.get,
    subscribe(handlers) {
      cell.attach(handlers);
      cell.set('connected');
      schedule(Math.max(timings.pollIdleMs - (monotonicNow(clock) - activity.lastActivityAt), 1));
    },
    async close() {
      cell.close();
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}

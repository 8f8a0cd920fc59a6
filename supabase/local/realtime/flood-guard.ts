// The realtime server's shared flood state (issue 36 N4; the limits and their hosted sources are in
// limits.ts): per-topic broadcast rates, sockets per client address, and the counters that show the
// limits at work. Invariant: a topic's window is dropped once it has been quiet for a whole window,
// and an address's count once its last socket closes, so neither map grows with topics or addresses
// that are gone.
import { CappedCounts } from '../../functions/_shared/capped-counts.ts';
import { emptyStats, RATE_WINDOW_MS, RateWindow, type RealtimeLimits, type RealtimeStats } from './limits.ts';

export class FloodGuard {
  readonly counters = emptyStats();
  private readonly topics = new Map<string, RateWindow>();
  private readonly perAddress = new CappedCounts(() => this.limits.maxSocketsPerAddress);
  private readonly sweep: NodeJS.Timeout;

  constructor(readonly limits: RealtimeLimits) {
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [key, w] of this.topics) if (!w.over(now) && w.idle) this.topics.delete(key);
    }, RATE_WINDOW_MS);
    this.sweep.unref();
  }

  /** A new window for one socket's own broadcasts. */
  socketWindow(): RateWindow {
    return new RateWindow(this.limits);
  }

  /** The window of a topic; private and public channels of one name are different topics. */
  topicWindow(topic: string, isPrivate: boolean): RateWindow {
    const key = `${isPrivate ? 'private' : 'public'}:${topic}`;
    let w = this.topics.get(key);
    if (!w) this.topics.set(key, (w = new RateWindow(this.limits)));
    return w;
  }

  /** Counts a socket for `address`, or answers false when the address holds its cap already. */
  admit(address: string): boolean {
    if (this.perAddress.take(address)) return true;
    this.counters.socketsRefused++;
    return false;
  }

  release(address: string): void {
    this.perAddress.free(address);
  }

  stats(sockets: number, bufferedBytes: number): RealtimeStats {
    return { sockets, bufferedBytes, ...this.counters };
  }

  close(): void {
    clearInterval(this.sweep);
  }
}

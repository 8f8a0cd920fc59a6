// The realtime server's flood limits (issue 36 N4), each taken from hosted Supabase Realtime and
// applied at a narrower scope than hosted does, so the local stack is never stricter than a hosted
// free-plan project in what one client may do (supabase/realtime, read at 833cf36):
// - payload: a broadcast larger than the tenant's max_payload_size_in_kb is not delivered; with
//   broadcast.ack the sender gets the error reply `payload_size_exceeded`
//   (lib/realtime/tenants.ex validate_payload_size: max_payload_size_in_kb * 1000 + 500 bytes of
//   padding; lib/realtime_web/channels/realtime_channel/broadcast_handler.ex). The free plan's value is
//   256 KB ("Broadcast payload size", docs guides/realtime/limits), Pro's 3,000 KB (the column default).
// - events: hosted counts every broadcast sent and every message a channel receives against the
//   tenant's max_events_per_second (config/runtime.exs TENANT_MAX_EVENTS_PER_SECOND 100), averaged
//   over 5 s ticks (lib/realtime/tenants.ex events_per_second_rate, lib/realtime/rate_counter), and
//   shuts the channel down with the system error "Too many messages per second"
//   (lib/realtime_web/channels/realtime_channel.ex). Here the same number is counted per topic (the
//   broadcast and its deliveries) and per socket (the broadcasts it sends), never for the whole
//   stack, so one flooding client cannot stop every other topic as it would on hosted.
// - bytes: hosted stores max_bytes_per_second (TENANT_MAX_BYTES_PER_SECOND, 100,000) but this
//   version does not enforce it; its bound on memory is a channel process's heap
//   (WEBSOCKET_MAX_HEAP_SIZE 50 MB, the process is killed above it). Here a topic and a socket may
//   move 1 MB/s of broadcast bytes averaged over the same 5 s (four free-plan payloads a second), and
//   an excess is answered like an event excess.
// - outbound buffer: a socket whose unsent data would pass maxBufferedBytes is terminated (a reader
//   that stopped reading; Phoenix kills the channel process at its heap limit instead).
// - sockets per client address: hosted caps a free project at 200 concurrent clients in total
//   (max_concurrent_users, "Too many connected users"); here each client address may hold 200, so one
//   address may open as many sockets as a whole free project allows (never stricter than hosted).
export interface RealtimeLimits {
  maxPayloadBytes: number;
  maxEventsPerSecond: number;
  maxBytesPerSecond: number;
  maxBufferedBytes: number;
  maxSocketsPerAddress: number;
}

export const DEFAULT_LIMITS: RealtimeLimits = {
  maxPayloadBytes: 256 * 1000 + 500,
  maxEventsPerSecond: 100,
  maxBytesPerSecond: 1_000_000,
  maxBufferedBytes: 2 * 1024 * 1024,
  maxSocketsPerAddress: 200,
};

/** Hosted's averaging window (one 5 s tick of its rate counter). */
export const RATE_WINDOW_MS = 5_000;

/** Hosted's replies (realtime_channel.ex, broadcast_handler.ex). */
export const TOO_MANY_MESSAGES = 'Too many messages per second';
export const PAYLOAD_SIZE_EXCEEDED = 'payload_size_exceeded';
export const TOO_MANY_CONNECTIONS = 'Too many connected users';

/**
 * Events and bytes within the last RATE_WINDOW_MS. Invariant: `over()` is judged on what was already
 * admitted, so a single broadcast within the payload cap always passes on a quiet topic.
 */
export class RateWindow {
  private entries: { at: number; events: number; bytes: number }[] = [];
  private events = 0;
  private bytes = 0;

  constructor(private readonly limits: Pick<RealtimeLimits, 'maxEventsPerSecond' | 'maxBytesPerSecond'>) {}

  private expire(now: number): void {
    while (this.entries.length && now - this.entries[0]!.at >= RATE_WINDOW_MS) {
      const e = this.entries.shift()!;
      this.events -= e.events;
      this.bytes -= e.bytes;
    }
  }

  over(now: number): boolean {
    this.expire(now);
    const seconds = RATE_WINDOW_MS / 1000;
    return this.events >= this.limits.maxEventsPerSecond * seconds || this.bytes >= this.limits.maxBytesPerSecond * seconds;
  }

  add(now: number, events: number, bytes: number): void {
    this.entries.push({ at: now, events, bytes });
    this.events += events;
    this.bytes += bytes;
  }

  get idle(): boolean {
    return this.entries.length === 0;
  }
}

/** Counters a test or the bench reads to see the limits hold. */
export interface RealtimeStats {
  sockets: number;
  /** Unsent bytes queued across all sockets now. */
  bufferedBytes: number;
  /** The most unsent bytes one socket has held, right after a send. */
  bufferedPeak: number;
  /** Sockets terminated because they stopped reading. */
  slowSocketsClosed: number;
  /** Broadcasts refused for their size. */
  payloadsRefused: number;
  /** Channels shut down with "Too many messages per second". */
  rateLimited: number;
  /** Upgrades refused for the per-address cap. */
  socketsRefused: number;
}

export function emptyStats(): Omit<RealtimeStats, 'sockets' | 'bufferedBytes'> {
  return { bufferedPeak: 0, slowSocketsClosed: 0, payloadsRefused: 0, rateLimited: 0, socketsRefused: 0 };
}

// R9.11: the server's clock as this device can know it. A phone's clock may be hours off; the times
// the engine makes (an unsent message's created_at) and the relative labels the UI shows ('Teraz',
// '3h') must follow the server's clock, which made every other timestamp. The offset is learnt from
// the server times in replies: sync_pull's `server_time` (clock_timestamp(), migration
// 20261124000100) and send_message's row `created_at` (the statement's now()), each taken against
// the midpoint of the request on this device's clock.
import type { Clock } from '../model/clock.ts';
import type { ServerApi } from '../server/api.ts';
import { msFromTimestamp } from '../model/timestamps.ts';

export interface OffsetSample {
  /** Server time minus device time, ms. */
  offsetMs: number;
  /** Half the round trip: the server's reading was taken somewhere within it. */
  uncertaintyMs: number;
}

/**
 * Keeps the best offset: a sample replaces the current one when it is at least as precise, or when
 * the two disagree by more than both uncertainties (the device's clock was set since).
 */
export class ServerOffset {
  private current: OffsetSample | null = null;

  /** A stored offset (from an earlier run) until a reply gives a measured one. */
  seed(offsetMs: number): void {
    this.current ??= { offsetMs, uncertaintyMs: Infinity };
  }

  /** True when the offset changed. */
  observe(sample: OffsetSample): boolean {
    const c = this.current;
    const adopt = c === null || sample.uncertaintyMs <= c.uncertaintyMs || Math.abs(sample.offsetMs - c.offsetMs) > sample.uncertaintyMs + c.uncertaintyMs;
    if (adopt) this.current = sample;
    return adopt;
  }

  /** 0 until a reply (or the stored value) told otherwise. */
  get ms(): number {
    return this.current?.offsetMs ?? 0;
  }
}

/** A sample from a server reading taken during a request that ran from `sentAt` to `receivedAt` (device ms). */
export function offsetSample(serverMs: number, sentAt: number, receivedAt: number): OffsetSample | null {
  if (!Number.isFinite(serverMs) || receivedAt < sentAt) return null; // the device clock stepped mid-request
  return { offsetMs: serverMs - (sentAt + receivedAt) / 2, uncertaintyMs: (receivedAt - sentAt) / 2 };
}

/** Wraps the server API so every pull page and stored send reports a sample; nothing else changes. */
export function withServerClock(server: ServerApi, clock: Pick<Clock, 'now'>, report: (s: OffsetSample) => void): ServerApi {
  const timed = async <T>(run: () => Promise<T>, serverTime: (r: T) => string | null | undefined): Promise<T> => {
    const sentAt = clock.now();
    const r = await run();
    const t = serverTime(r);
    const s = t ? offsetSample(msFromTimestamp(t), sentAt, clock.now()) : null;
    if (s) report(s);
    return r;
  };
  // Every method delegated by name (not spread: a class instance's methods live on its prototype).
  return {
    pull: (since, limit, transfer) => timed(() => server.pull(since, limit, transfer), (p) => p.server_time),
    ...(server.pullHead ? { pullHead: server.pullHead.bind(server) } : {}),
    sendMessage: (input) => timed(() => server.sendMessage(input), (r) => ('row' in r ? r.row.created_at : null)),
    markRead: (conversationId, messageId) => server.markRead(conversationId, messageId),
    setArchived: (conversationId, archivedAt) => server.setArchived(conversationId, archivedAt),
    startConversation: (input) => server.startConversation(input),
    ensureFirstConversation: () => server.ensureFirstConversation(),
    fetchAccountId: (userId) => server.fetchAccountId(userId),
    fetchAccount: (accountId) => server.fetchAccount(accountId),
    fetchActiveSpecialists: (accountId) => server.fetchActiveSpecialists(accountId),
  };
}

/**
 * The page's view of the server clock for code outside the engine (the UI's relative times,
 * src/lib/relative-time.ts). The engine of the signed-in user installs its own; before that, and
 * with none, it is the device's clock.
 */
let pageServerNow: () => number = () => Date.now();

export function serverNow(): number {
  return pageServerNow();
}

export function installServerNow(fn: () => number): () => void {
  pageServerNow = fn;
  return () => {
    if (pageServerNow === fn) pageServerNow = () => Date.now();
  };
}

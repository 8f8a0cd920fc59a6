// Business constants of user-area.md section 9, exactly as the spec gives them, and below them the
// engine's own values the spec does not name. Timings are grouped in `Timings` so tests (and the fuzz
// test) can scale them; production always uses SPEC_TIMINGS.

/** Empty-state grace period before an empty list is shown after a non-empty one. */
export const EMPTY_STATE_GRACE_MS = 1500;
/** Chatwoot RoomChannel presence ping. */
export const PRESENCE_PING_MS = 30_000;
/** Support-chat socket reconnect: at most 10 attempts, 1000 ms × 1.5^n capped at 15 s, plus 0–30 % jitter. */
export const CABLE_RECONNECT = { maxAttempts: 10, baseMs: 1000, factor: 1.5, capMs: 15_000, jitter: 0.3 } as const;
/** Unread badge shows '99+' above this. */
export const UNREAD_BADGE_CAP = 99;
/** Conversation list limit (older variant of the product). */
export const CONVERSATION_LIST_LIMIT = 50;
/** Message fetch limit of the per-conversation loader. */
export const MESSAGE_FETCH_LIMIT = 100;
/** Optimistic message keep time. */
export const OPTIMISTIC_KEEP_MS = 30_000;
/** An optimistic message matches a server one with equal text and sender within this window. */
export const DEDUP_WINDOW_MS = 5000;
/** Realtime heartbeat of the backend client and its default socket timeout. */
export const REALTIME_HEARTBEAT_MS = 25_000;
export const REALTIME_SOCKET_TIMEOUT_MS = 10_000;

export interface Timings {
  /** Orchestrator tick. */
  tickMs: number;
  /** Minimum gap between the starts of two fetches; later ones are deferred. */
  fetchGapMs: number;
  /** A fetch requested while one runs is queued and starts this long after it ends. */
  queuedRefetchMs: number;
  /** Polling starts when disconnected and idle longer than this. */
  pollIdleMs: number;
  pollStartMs: number;
  pollFactor: number;
  pollMaxMs: number;
  /** Health refetch when connected and idle this long. */
  healthIdleMs: number;
  /** A typing start older than this triggers a refetch. */
  typingStaleMs: number;
  /** The UI's typing timeout. */
  typingTimeoutMs: number;
  resubscribeStartMs: number;
  resubscribeFactor: number;
  resubscribeMaxMs: number;
  /** Engine's own: how long a status must hold before it is published (a blip does not flash a banner). */
  statusDebounceMs: number;
  /** Engine's own: outbox retry back-off after a transient error. */
  retryStartMs: number;
  retryFactor: number;
  retryMaxMs: number;
  /** R9.4: every request of the engine gives up after this long (a black-holed reply is transient). */
  requestTimeoutMs: number;
  /** R9.4: outbox entries of different conversations on the wire at once. */
  pushLanes: number;
}

export const SPEC_TIMINGS: Readonly<Timings> = Object.freeze({
  tickMs: 3000,
  fetchGapMs: 1200,
  queuedRefetchMs: 100,
  pollIdleMs: 5000,
  pollStartMs: 2000,
  pollFactor: 1.5,
  pollMaxMs: 15_000,
  healthIdleMs: 30_000,
  typingStaleMs: 120_000,
  typingTimeoutMs: 30_000,
  resubscribeStartMs: 1500,
  resubscribeFactor: 2,
  resubscribeMaxMs: 30_000,
  statusDebounceMs: 1500,
  retryStartMs: 1000,
  retryFactor: 2,
  retryMaxMs: 30_000,
  requestTimeoutMs: 15_000,
  pushLanes: 4,
});

/** Rows per sync_pull page: the RPC's maximum (its default is 500); fewer round trips in an initial sync. */
export const PULL_PAGE_LIMIT = 1000;
/** The fixed assistant specialist of the request-specialist flow. */
export const ASSISTANT_SPECIALIST_ID = '00000000-0000-4000-8000-000000000001';

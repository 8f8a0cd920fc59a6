// R9.1/R9.2: the session every engine request rides on. Before a pull or a push the engine asks the
// gate; it answers `ok` only for a valid session of the engine's own user, refreshing first when the
// access token has expired (so the first request after a reconnect carries a fresh token, not the
// anon key); `signed-out` when the refresh token was refused (revoked, sign-out everywhere) or
// another user is signed in on the client — the engine then stops requesting, keeps its outbox and
// tells the user to sign in; `unreachable` when the auth server could not be reached.
//
// R9.12: auth-js judges a token's expiry by the device's clock; on a phone whose clock is behind the
// server's it keeps handing out a token the server already refuses. The gate therefore also judges
// the expiry by the server's clock as the engine learnt it (R9.11), and refreshes after any 401.
import { isAuthError, isAuthRetryableFetchError, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { ServerError, type HeadLimits, type ServerApi } from '../server/api.ts';

export type AuthState = 'ok' | 'signed-out' | 'unreachable';

export interface AuthGate {
  /** A usable session of the engine's user, refreshed first when needed. */
  ensure(): Promise<AuthState>;
  /** Called whenever the client's session changes (signed in again, refreshed, signed out). */
  subscribe(fn: () => void): () => void;
  /**
   * R9.12: the server refused a request as unauthenticated (HTTP 401): its access token may have
   * expired by the server's clock though not by the device's. The next `ensure` refreshes first.
   */
  unauthorized?(): void;
  /**
   * R9.16: the engine's network source changed (`online`), and at start (`false` when it starts
   * offline). Called before the engine acts on the change.
   */
  network?(online: boolean): void;
  /** R9.16: the engine stopped; whatever the gate changed on the client is given back. */
  release?(): void;
}

/** R9.12: what the gate needs beyond the client: the server's clock as the engine knows it (R9.11). */
export interface GateClock {
  /** The current time on the server's clock (ms); default: the device's. */
  serverNow?: () => number;
  /** Monotonic ms, to space forced refreshes (default: performance.now()). */
  monotonic?: () => number;
}

/** R9.12: at most one forced refresh per this long, whatever refuses requests. */
const FORCED_REFRESH_GAP_MS = 1000;
/** R9.12: a token closer than this to its expiry by the server's clock is refreshed (a quarter of its life at most). */
const SERVER_EXPIRY_MARGIN_MS = 30_000;

/**
 * R9.12: whether the session's access token has expired by the server's clock, or will within the
 * margin (at most a quarter of the token's lifetime, so a short-lived token is not refreshed at each
 * request). The expiry is the server's (the token's `exp`, as GoTrue's `expires_at`); auth-js compares
 * it with the device's `Date.now()` only.
 */
function expiredOnServer(session: { expires_at?: number; access_token: string }, serverNow: number): boolean {
  const claims = jwtTimes(session.access_token);
  // The token's own exp first: the server wrote it on its clock (auth-js's expires_at is the same
  // number from GoTrue, or derived from expires_in on the device's clock when absent).
  const exp = claims?.exp ?? session.expires_at;
  if (exp === undefined) return false;
  const life = claims?.iat !== undefined && claims.exp !== undefined ? (claims.exp - claims.iat) * 1000 : Infinity;
  return exp * 1000 - Math.min(SERVER_EXPIRY_MARGIN_MS, life / 4) <= serverNow;
}

/** The token's own exp and iat (decoded, not verified: the server verifies; this only schedules). */
function jwtTimes(token: string): { exp?: number; iat?: number } | null {
  try {
    const p = decodeJwt(token);
    return { ...(typeof p.exp === 'number' ? { exp: p.exp } : {}), ...(typeof p.iat === 'number' ? { iat: p.iat } : {}) };
  } catch {
    return null;
  }
}

type Auth = SupabaseClient['auth'];

/**
 * auth-js caches a failed refresh for REFRESH_FAILURE_COOLDOWN_MS (60 s) per refresh token and hands
 * the cached failure to every caller meanwhile (supabase/auth-js src/GoTrueClient.ts,
 * `_callRefreshToken`, `lastRefreshFailure`). A refresh that failed while the phone was offline thus
 * kept every request after the reconnect on the anon key for up to a minute (issue 18, row 1). The
 * engine only asks again once its network source says online, so a cached *network* failure is stale
 * by then; it is dropped (only that kind: a refused token stays refused) and the refresh retried once.
 */
function forgetCachedNetworkFailure(auth: Auth): boolean {
  const a = auth as unknown as { lastRefreshFailure?: { result?: { error?: unknown } } | null };
  const cached = a.lastRefreshFailure?.result?.error;
  if (!cached || !isAuthRetryableFetchError(cached)) return false;
  a.lastRefreshFailure = null;
  return true;
}

const TIMED = Symbol('poradna.timedAuthFetch');

/**
 * R9.13: every request auth-js makes for the engine (refresh, getUser) ends within `timeoutMs`.
 * auth-js has no timeout option and supabase-js hands it the client's `global.fetch` untouched
 * (sync/README builds the client without one), so a refresh whose reply never comes would hold
 * auth-js's refresh lock — and with it every `getSession` — forever. Its requests all go through the
 * client's `fetch` member (supabase/auth-js src/GoTrueClient.ts, `this.fetch`, used by `_request`);
 * that member is wrapped once per client. A timeout is a fetch failure, which auth-js reports as
 * `AuthRetryableFetchError` (src/lib/fetch.ts `_handleRequest`): the gate answers `unreachable`.
 */
export function timeAuthRequests(auth: Auth, timeoutMs: number): void {
  const a = auth as unknown as { fetch?: typeof fetch; [TIMED]?: true };
  const inner = a.fetch;
  if (typeof inner !== 'function' || a[TIMED]) return;
  a[TIMED] = true;
  a.fetch = (input, init) => {
    const limit = AbortSignal.timeout(timeoutMs);
    return inner(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, limit]) : limit });
  };
}

/** The gate over a supabase-js client's own auth; null when the client has none (`accessToken` option). */
export function supabaseAuthGate(supabase: SupabaseClient, userId: string, clock: GateClock = {}, timeoutMs?: number): AuthGate | null {
  let auth: Auth;
  try {
    auth = supabase.auth;
    // With the `accessToken` option, supabase-js answers every auth member with a throwing proxy.
    if (typeof auth.getSession !== 'function') return null;
  } catch {
    return null;
  }
  if (timeoutMs !== undefined) timeAuthRequests(auth, timeoutMs);
  const serverNow = clock.serverNow ?? (() => Date.now());
  const mono = clock.monotonic ?? (() => globalThis.performance.now());
  /**
   * R9.16: auth-js's refresh ticker (`autoRefreshToken`, which the app ships: src/supabase.ts) is
   * paused while the engine knows the device offline and started again (one tick at once) when it is
   * back. Left running offline, a tick that found the token near its expiry began a refresh that
   * failed for lack of network and retried with back-off, 200 ms × 2ⁿ for up to 30 s, holding the
   * refresh every getSession waits for (supabase/auth-js src/GoTrueClient.ts `_refreshAccessToken`,
   * `_autoRefreshTokenTick`): the queued sends left 6–10 s after the reconnect, at the loop's next
   * try (issue 35). `startAutoRefresh`/`stopAutoRefresh` are auth-js's public switch for this (its
   * docs: React Native's AppState, where no visibility event drives it).
   */
  const ticker = (auth as unknown as { autoRefreshToken?: boolean }).autoRefreshToken === true;
  let tickerOn = true;
  /** R9.12: a 401 was seen since the last refresh. */
  let refused = false;
  let forcedAt = -Infinity;
  /**
   * R9.12: refreshes although auth-js holds the session valid: a device clock behind the server's
   * makes auth-js keep handing out a token the server already refuses (it judges expiry by
   * `Date.now()` alone), and a clock 2 h behind would never refresh a 1 h token at all.
   */
  const forceRefresh = async (): Promise<AuthState> => {
    forcedAt = mono();
    const { data, error } = await auth.refreshSession();
    if (data.session) {
      refused = false;
      return data.session.user.id === userId ? 'ok' : 'signed-out';
    }
    if (error && (isAuthRetryableFetchError(error) || !isAuthError(error))) return 'unreachable';
    return 'signed-out';
  };
  const check = async (): Promise<AuthState | 'retry'> => {
    const { data, error } = await auth.getSession();
    const session = data.session;
    if (session) {
      if (session.user.id !== userId) return 'signed-out';
      const stale = refused || expiredOnServer(session, serverNow());
      if (stale && mono() - forcedAt >= FORCED_REFRESH_GAP_MS) return forceRefresh();
      return 'ok';
    }
    if (error && isAuthRetryableFetchError(error))
      return forgetCachedNetworkFailure(auth) ? 'retry' : 'unreachable';
    if (error && !isAuthError(error)) return 'unreachable';
    return 'signed-out';
  };
  return {
    async ensure() {
      try {
        const first = await check();
        if (first !== 'retry') return first;
        const second = await check();
        return second === 'retry' ? 'unreachable' : second;
      } catch {
        return 'unreachable';
      }
    },
    unauthorized() {
      refused = true;
    },
    network(online) {
      if (!ticker) return;
      if (online === tickerOn) return;
      tickerOn = online;
      void (online ? auth.startAutoRefresh() : auth.stopAutoRefresh()).catch(() => undefined);
    },
    release() {
      if (ticker && !tickerOn) void auth.startAutoRefresh().catch(() => undefined);
      tickerOn = true;
    },
    subscribe(fn) {
      const { data } = auth.onAuthStateChange(() => {
        // Never call auth methods inside the callback (auth-js holds its lock there): defer.
        setTimeout(fn, 0);
      });
      return () => data.subscription.unsubscribe();
    },
  };
}

/**
 * R9.12: the server API with every 401 reported to `onRefused` (the gate's `unauthorized`), which
 * makes the next `ensure` refresh the session; the error itself is rethrown unchanged.
 */
export function reportingUnauthorized(server: ServerApi, onRefused: () => void): ServerApi {
  const watch = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ServerError && err.status === 401) onRefused();
      throw err;
    }
  };
  // Every method delegated by name (not spread: a class instance's methods live on its prototype).
  return {
    pull: (since, limit, transfer) => watch(() => server.pull(since, limit, transfer)),
    ...(server.pullHead ? { pullHead: (since: number, limits: HeadLimits) => watch(() => server.pullHead!(since, limits)) } : {}),
    sendMessage: (input) => watch(() => server.sendMessage(input)),
    markRead: (conversationId, messageId) => watch(() => server.markRead(conversationId, messageId)),
    setArchived: (conversationId, archivedAt) => watch(() => server.setArchived(conversationId, archivedAt)),
    startConversation: (input) => watch(() => server.startConversation(input)),
    ensureFirstConversation: () => watch(() => server.ensureFirstConversation()),
    fetchAccountId: (userId) => watch(() => server.fetchAccountId(userId)),
    fetchAccount: (accountId) => watch(() => server.fetchAccount(accountId)),
    fetchActiveSpecialists: (accountId) => watch(() => server.fetchActiveSpecialists(accountId)),
  };
}

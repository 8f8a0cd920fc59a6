// R9.1/R9.2: the session every engine request rides on. Before a pull or a push the engine asks the
// gate; it answers `ok` only for a valid session of the engine's own user, refreshing first when the
// access token has expired (so the first request after a reconnect carries a fresh token, not the
// anon key); `signed-out` when the refresh token was refused (revoked, sign-out everywhere) or
// another user is signed in on the client — the engine then stops requesting, keeps its outbox and
// tells the user to sign in; `unreachable` when the auth server could not be reached.
import { isAuthError, isAuthRetryableFetchError, type SupabaseClient } from '@supabase/supabase-js';

export type AuthState = 'ok' | 'signed-out' | 'unreachable';

export interface AuthGate {
  /** A usable session of the engine's user, refreshed first when needed. */
  ensure(): Promise<AuthState>;
  /** Called whenever the client's session changes (signed in again, refreshed, signed out). */
  subscribe(fn: () => void): () => void;
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

/** The gate over a supabase-js client's own auth; null when the client has none (`accessToken` option). */
export function supabaseAuthGate(supabase: SupabaseClient, userId: string): AuthGate | null {
  let auth: Auth;
  try {
    auth = supabase.auth;
    // With the `accessToken` option, supabase-js answers every auth member with a throwing proxy.
    if (typeof auth.getSession !== 'function') return null;
  } catch {
    return null;
  }
  const check = async (): Promise<AuthState | 'retry'> => {
    const { data, error } = await auth.getSession();
    const session = data.session;
    if (session) return session.user.id === userId ? 'ok' : 'signed-out';
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
    subscribe(fn) {
      const { data } = auth.onAuthStateChange(() => {
        // Never call auth methods inside the callback (auth-js holds its lock there): defer.
        setTimeout(fn, 0);
      });
      return () => data.subscription.unsubscribe();
    },
  };
}

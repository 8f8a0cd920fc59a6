// The supabase-js client (auth-js, postgrest-js, realtime-js) is its own chunk, so the entry and the
// login's first paint do not wait for it: the login form paints while it loads, and every auth
// action awaits it. Invariant: there is still exactly one client per page (src/supabase.ts is only
// ever evaluated once; this module memoises the import, and a failed import is retried next time).
import type * as SupabaseModuleNs from '../supabase.ts';
import type { AuthClientLike } from './AuthProvider.tsx';

export type SupabaseModule = typeof SupabaseModuleNs;

let loading: Promise<SupabaseModule> | null = null;
let authWanted: Promise<void> = Promise.resolve();
let wantAuth: () => void = () => undefined;

export function loadSupabase(): Promise<SupabaseModule> {
  wantAuth(); // whoever needs the client first also ends a deferral
  if (!loading) {
    loading = import('../supabase.ts');
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * A first visit to the auth pages without a stored session has no session to report: the provider's
 * subscription (and so the client's download) then waits until the page has loaded and the browser
 * idles, so supabase-js does not compete with the login form for the first paint. An auth action
 * loads the client at once through loadSupabase(), which also ends the wait.
 */
export function deferAuthClientUntilIdle(): void {
  authWanted = new Promise<void>((resolve) => {
    wantAuth = resolve;
    const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(() => resolve(), { timeout: 2000 }) : setTimeout(resolve, 200));
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

/** supabase.auth for the AuthProvider, subscribing once the client has loaded. */
export const lazyAuthClient: AuthClientLike = {
  onAuthStateChange(callback) {
    let cancelled = false;
    let subscription: { unsubscribe(): void } | null = null;
    authWanted.then(loadSupabase).then(
      ({ supabase }) => {
        if (!cancelled) subscription = supabase.auth.onAuthStateChange(callback).data.subscription;
      },
      (err: unknown) => console.error('auth client failed to load:', err),
    );
    return {
      data: {
        subscription: {
          unsubscribe() {
            cancelled = true;
            subscription?.unsubscribe();
          },
        },
      },
    };
  },
};

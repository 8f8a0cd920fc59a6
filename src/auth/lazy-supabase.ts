// The supabase-js client (auth-js, postgrest-js, realtime-js) is its own chunk, so the entry and the
// login's first paint do not wait for it: the login form paints while it loads, and every auth
// action awaits it. Invariant: there is still exactly one client per page (src/supabase.ts is only
// ever evaluated once; this module memoises the import, and a failed import is retried next time).
import type * as SupabaseModuleNs from '../supabase.ts';
import type { AuthClientLike } from './AuthProvider.tsx';

export type SupabaseModule = typeof SupabaseModuleNs;

let loading: Promise<SupabaseModule> | null = null;

export function loadSupabase(): Promise<SupabaseModule> {
  if (!loading) {
    loading = import('../supabase.ts');
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** supabase.auth for the AuthProvider, subscribing once the client has loaded. */
export const lazyAuthClient: AuthClientLike = {
  onAuthStateChange(callback) {
    let cancelled = false;
    let subscription: { unsubscribe(): void } | null = null;
    loadSupabase().then(
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

// The one supabase-js client of the app. Session in localStorage (supabase-js' default key, derived
// from the backend host). Auth links are handled by /auth/callback and /auth/reset-password
// themselves (hash tokens or ?code=), so the client must not consume the address on its own.
// The service worker cannot read localStorage: the session is mirrored for it into IndexedDB
// (auth/session-mirror.ts). The entry never imports this module statically: auth/lazy-supabase.ts
// loads it as its own chunk.
import { createClient } from '@supabase/supabase-js';
export { isAuthApiError } from '@supabase/supabase-js';
import { mirrorSessionForWorker } from './auth/session-mirror.ts';
import { timeoutFetch } from './lib/timeout-fetch.ts';
import { readAppEnv } from './env.ts';

export const appEnv = readAppEnv();

export const supabase = createClient(appEnv.supabaseUrl, appEnv.anonKey, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
    flowType: 'implicit',
    storage: window.localStorage,
  },
  // No request may hang forever (a black-holed request would stall the outbox); a timeout is a
  // network error, which the sync engine retries.
  global: { fetch: timeoutFetch(30_000) },
});

mirrorSessionForWorker(supabase, appEnv.supabaseUrl, appEnv.anonKey);

// Where the app finds its backend: /env.js (served by the stack) sets window.__PORADNA_ENV__; a build
// may bake VITE_SUPABASE_URL / VITE_SUPABASE_PUBLISHABLE_KEY instead (the legacy VITE_SUPABASE_ANON_KEY
// is still accepted). The last good value is remembered so an offline cold start still knows its backend.
export interface AppEnv {
  supabaseUrl: string;
  /** The browser's API key: the publishable key (`sb_publishable_…`) or a legacy anon JWT. */
  anonKey: string;
}

declare global {
  interface Window {
    /** publishableKey from today's /env.js; anonKey from an older stack's. */
    __PORADNA_ENV__?: { supabaseUrl?: string; publishableKey?: string; anonKey?: string };
  }
}

const STORAGE_KEY = 'poradna.env';

export function readAppEnv(): AppEnv {
  const injected = window.__PORADNA_ENV__;
  const bakedKey = (import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY as string | undefined) || (import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined);
  const url = injected?.supabaseUrl || (import.meta.env.VITE_SUPABASE_URL as string | undefined);
  const key = injected?.publishableKey || injected?.anonKey || bakedKey;
  if (url && key) {
    const env = { supabaseUrl: url, anonKey: key };
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(env));
    } catch {
      /* storage unavailable: nothing to remember */
    }
    return env;
  }
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as AppEnv | null;
    if (saved?.supabaseUrl && saved.anonKey) return saved;
  } catch {
    /* fall through */
  }
  throw new Error('The backend URL and key must be non-empty');
}

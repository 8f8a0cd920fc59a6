// Where the app finds its backend: /env.js (served by the stack) sets window.__PORADNA_ENV__; a build
// may bake VITE_SUPABASE_URL / VITE_SUPABASE_ANON_KEY instead. The last good value is remembered so an
// offline cold start still knows its backend.
export interface AppEnv {
  supabaseUrl: string;
  anonKey: string;
}

declare global {
  interface Window {
    __PORADNA_ENV__?: Partial<AppEnv>;
  }
}

const STORAGE_KEY = 'poradna.env';

export function readAppEnv(): AppEnv {
  const injected = window.__PORADNA_ENV__;
  const baked = { supabaseUrl: import.meta.env.VITE_SUPABASE_URL as string | undefined, anonKey: import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined };
  const url = injected?.supabaseUrl || baked.supabaseUrl;
  const key = injected?.anonKey || baked.anonKey;
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

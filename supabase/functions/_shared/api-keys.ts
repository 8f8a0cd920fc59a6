// Which API key a function uses. A hosted project hands functions both kinds (supabase/cli
// apps/cli-go/internal/functions/serve/templates/main.ts; supabase.com/docs/guides/functions/secrets):
// the legacy JWT keys as SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY and the new ones as JSON maps
// name → key, SUPABASE_PUBLISHABLE_KEYS / SUPABASE_SECRET_KEYS (`{"default": "sb_…"}`); a single key
// may also be set by hand as SUPABASE_PUBLISHABLE_KEY / SUPABASE_SECRET_KEY.
// Invariant: a new key is preferred whenever one is given, so a project that disabled its legacy keys
// keeps working; the legacy key is the fallback for a project without new keys.
import type { FunctionEnv } from './types.ts';

/** The keys of one JSON map, `default` first; a malformed map gives none. */
function keysOf(json: string | undefined): string[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!parsed || typeof parsed !== 'object') return [];
    const entries = Object.entries(parsed as Record<string, unknown>).sort(([a], [b]) => Number(b === 'default') - Number(a === 'default'));
    return entries.map(([, v]) => v).filter((v): v is string => typeof v === 'string' && v !== '');
  } catch {
    return [];
  }
}

/** Every secret key of the project (sb_secret_…), for checking a caller's key. */
export function secretKeys(env: FunctionEnv): string[] {
  return [...(env.SUPABASE_SECRET_KEY ? [env.SUPABASE_SECRET_KEY] : []), ...keysOf(env.SUPABASE_SECRET_KEYS)];
}

/** The key a function acts as the service role with: a secret key, else the legacy service_role key. */
export function serviceKey(env: FunctionEnv): string {
  return secretKeys(env)[0] ?? env.SUPABASE_SERVICE_ROLE_KEY;
}

/** The key a function acts as anon / as a user with: the publishable key, else the legacy anon key. */
export function publicKey(env: FunctionEnv): string {
  return env.SUPABASE_PUBLISHABLE_KEY || keysOf(env.SUPABASE_PUBLISHABLE_KEYS)[0] || env.SUPABASE_ANON_KEY;
}

/** An API key rather than a user's token: a caller that sent one is no user. */
export function isApiKey(env: FunctionEnv, token: string): boolean {
  return token.startsWith('sb_') || token === env.SUPABASE_ANON_KEY || token === publicKey(env);
}

// A lean stand-in for the supabase-js client inside the service worker: only what the engine's
// ServerApi (server/supabase-api.ts) calls — rpc, from and functions.invoke — built from the same
// postgrest-js and functions-js that supabase-js wraps, with the mirrored access token. Leaving out
// auth-js, realtime and storage keeps the worker script about 190 KB smaller; the worker never
// refreshes a session anyway (session-store.ts).
import { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { SupabaseClient } from '@supabase/supabase-js';

export function createWorkerClient(url: string, anonKey: string, accessToken: string): SupabaseClient {
  const base = url.replace(/\/+$/, '');
  const headers = { apikey: anonKey, Authorization: `Bearer ${accessToken}` };
  const rest = new PostgrestClient(`${base}/rest/v1`, { headers });
  const functions = new FunctionsClient(`${base}/functions/v1`, { headers });
  const client = {
    from: (relation: string) => rest.from(relation),
    rpc: (fn: string, args?: Record<string, unknown>) => rest.rpc(fn, args),
    functions,
  };
  // The ServerApi touches only these three members; the rest of SupabaseClient is never reached.
  return client as unknown as SupabaseClient;
}

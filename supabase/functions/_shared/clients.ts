// supabase-js clients for functions: one acting as the caller (RLS applies) and one with the service
// role (bypasses RLS; use only after the function has checked the caller itself).
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { FunctionEnv } from './types.ts';

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;

export function bearerToken(req: Request): string | undefined {
  return req.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
}

export function userClient(env: FunctionEnv, token: string): SupabaseClient {
  return createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: noSession,
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

export function serviceClient(env: FunctionEnv): SupabaseClient {
  return createClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, { auth: noSession });
}

export function anonClient(env: FunctionEnv): SupabaseClient {
  return createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, { auth: noSession });
}

// supabase-js clients for functions: one acting as the caller (RLS applies) and one with the service
// role (bypasses RLS; use only after the function has checked the caller itself).
import { createClient } from '@supabase/supabase-js';
import type { FunctionEnv } from './types.ts';

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;

function makeClient(url: string, key: string, headers?: Record<string, string>) {
  return createClient(url, key, { auth: noSession, ...(headers ? { global: { headers } } : {}) });
}

/** The client type without generated database types. */
export type Db = ReturnType<typeof makeClient>;

export function bearerToken(req: Request): string | undefined {
  return req.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
}

export function userClient(env: FunctionEnv, token: string): Db {
  return makeClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, { Authorization: `Bearer ${token}` });
}

export function serviceClient(env: FunctionEnv): Db {
  return makeClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY);
}

export function anonClient(env: FunctionEnv): Db {
  return makeClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY);
}

// supabase-js clients for functions: one acting as the caller (RLS applies) and one with the service
// role (bypasses RLS; use only after the function has checked the caller itself). They use the new
// publishable / secret keys when the project has them (api-keys.ts).
import { createClient } from '@supabase/supabase-js';
import { publicKey, serviceKey } from './api-keys.ts';
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
  return makeClient(env.SUPABASE_URL, publicKey(env), { Authorization: `Bearer ${token}` });
}

export function serviceClient(env: FunctionEnv): Db {
  return makeClient(env.SUPABASE_URL, serviceKey(env));
}

export function anonClient(env: FunctionEnv): Db {
  return makeClient(env.SUPABASE_URL, publicKey(env));
}

// Who is calling: the user behind the bearer JWT and whether they are a super admin (checked in the
// database, never trusted from the client). 401 without a valid user token, 403 for a non-admin on
// admin functions.
// Every function runs with verify_jwt = false (supabase/config.toml): the platform's gateway check
// also admits a request that carries only the project's publishable or secret key (docs
// guides/functions/auth-headers), so it proves no user; the caller is checked here, as Supabase
// advises (supabase.com/docs/guides/functions/auth):
//  1. auth.getClaims(token) verifies signature and expiry: ES256 tokens against the project's JWKS
//     (/auth/v1/.well-known/jwks.json, fetched once and cached), HS256 ones by asking the auth server
//     (auth-js GoTrueClient.getClaims falls back to getUser when the alg is HS* or there is no kid).
//  2. auth.getUser(token) then asks the auth server whether the session still exists, so a signed-out
//     or deleted user is refused at once rather than when the token expires (getClaims alone cannot
//     know: an ES256 token stays cryptographically valid until its exp).
import type { User } from '@supabase/supabase-js';
import { isApiKey } from './api-keys.ts';
import { bearerToken, serviceClient, userClient, type Db } from './clients.ts';
import { HttpError } from './http.ts';
import type { FunctionEnv } from './types.ts';

export interface Caller {
  user: User;
  token: string;
  /** Acts as the caller: RLS applies. */
  db: Db;
}

/** The auth service unreachable or its database down is not a bad session (clients would sign out). */
function unavailable(error: { status?: number | undefined } | null): boolean {
  return !!error && (error.status === 0 || (error.status ?? 0) >= 500);
}

export async function requireUser(req: Request, env: FunctionEnv): Promise<Caller> {
  const token = bearerToken(req);
  if (!token || isApiKey(env, token)) throw new HttpError(401, 'No auth token available');
  const db = userClient(env, token);
  const verified = await db.auth.getClaims(token);
  if (unavailable(verified.error))
    throw new HttpError(503, 'The service is not available right now; retry shortly');
  const claims = verified.data?.claims;
  if (verified.error || !claims) throw new HttpError(401, 'Invalid or expired session');
  // Only a user's token: an API key (anon / service_role, even validly signed) is not a caller.
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string')
    throw new HttpError(401, 'No auth token available');
  const { data, error } = await db.auth.getUser(token);
  if (unavailable(error)) throw new HttpError(503, 'The service is not available right now; retry shortly');
  if (error || !data.user || data.user.id !== claims.sub) throw new HttpError(401, 'Invalid or expired session');
  return { user: data.user, token, db };
}

export async function isSuperAdmin(env: FunctionEnv, userId: string): Promise<boolean> {
  const { data, error } = await serviceClient(env)
    .from('app_users')
    .select('role')
    .eq('user_id', userId)
    .eq('role', 'super_admin')
    .maybeSingle();
  if (error) throw new HttpError(500, 'Could not check the caller role');
  return data !== null;
}

export async function requireSuperAdmin(req: Request, env: FunctionEnv): Promise<Caller> {
  const caller = await requireUser(req, env);
  if (!(await isSuperAdmin(env, caller.user.id))) throw new HttpError(403, 'Super admin role required');
  return caller;
}

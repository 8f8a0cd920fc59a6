// Who is calling: the user behind the bearer JWT (checked with the auth service, so a signed-out
// session is refused) and whether they are a super admin (checked in the database, never trusted
// from the client). 401 without a user token, 403 for a non-admin on admin functions.
import type { User } from '@supabase/supabase-js';
import { bearerToken, serviceClient, userClient, type Db } from './clients.ts';
import { HttpError } from './http.ts';
import type { FunctionEnv } from './types.ts';

export interface Caller {
  user: User;
  token: string;
  /** Acts as the caller: RLS applies. */
  db: Db;
}

export async function requireUser(req: Request, env: FunctionEnv): Promise<Caller> {
  const token = bearerToken(req);
  if (!token || token === env.SUPABASE_ANON_KEY) throw new HttpError(401, 'No auth token available');
  const db = userClient(env, token);
  const { data, error } = await db.auth.getUser(token);
  // The auth service unreachable or its database down is not a bad session (clients would sign out).
  if (error && (error.status === 0 || (error.status ?? 0) >= 500))
    throw new HttpError(503, 'The service is not available right now; retry shortly');
  if (error || !data.user) throw new HttpError(401, 'Invalid or expired session');
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

// Who is calling. A user JWT counts only while its signature is valid, it has not expired, and the
// session named by its session_id claim still exists for the same user; so logout and user
// deletion take effect at once, not when the token expires (reuse detection keeps the session row,
// as GoTrue does: see refresh.ts).
import type { AuthDeps } from './deps.ts';
import { AuthError, forbidden } from './errors.ts';
import { findSession, type SessionRow } from './sessions.ts';
import { verifyAccessToken, type AccessClaims } from './tokens.ts';
import { findUserById, isUuid, type UserRow } from './users.ts';

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export interface Caller {
  claims: AccessClaims;
  user: UserRow;
  session: SessionRow;
}

/** `authorization` is the raw Authorization header. */
function bearer(authorization: string | undefined): string {
  const m = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m?.[1]) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token');
  return m[1];
}

export async function requireUser(deps: AuthDeps, authorization: string | undefined): Promise<Caller> {
  const claims = await verifyAccessToken(deps.keys, bearer(authorization));
  if (typeof claims.sub !== 'string' || claims.sub === '') throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (typeof claims.session_id !== 'string') throw forbidden('bad_jwt', 'invalid claim: missing session_id claim');
  const session = isUuid(claims.session_id) ? await findSession(deps.pool, claims.session_id) : undefined;
  if (!session || session.user_id !== claims.sub) {
    throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  const user = await findUserById(deps.pool, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  return { claims, user, session };
}

/** The service_role key (or another admin-role JWT); a user's JWT is refused with 403 not_admin. */
export async function requireAdmin(deps: AuthDeps, authorization: string | undefined): Promise<AccessClaims> {
  const claims = await verifyAccessToken(deps.keys, bearer(authorization));
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) throw forbidden('not_admin', 'User not allowed');
  return claims;
}

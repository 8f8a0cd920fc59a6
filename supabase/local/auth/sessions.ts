// Sessions: a row in auth.sessions, a chain of refresh tokens, and short-lived access tokens whose
// session_id claim names the row. Deleting the row (logout, user deletion) ends the session: its
// refresh tokens cascade away and its access tokens stop being accepted. Reuse detection, as in
// GoTrue, only revokes the session's refresh tokens (refresh.ts).
import type { AuthDeps } from './deps.ts';
import type { Db } from './db.ts';
import { randomToken, signAccessToken, type AmrEntry } from './tokens.ts';
import { findUserById, markSignedIn, userJson, type UserJson, type UserRow } from './users.ts';

export type AmrMethod = 'password' | 'otp' | 'magiclink' | 'recovery';

export interface ClientMeta {
  ip: string;
  userAgent: string | undefined;
}

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
}

export interface SessionRow {
  id: string;
  user_id: string;
  aal: string;
  amr: AmrEntry[];
  not_after: Date | null;
  /** When the user signed in (refreshing keeps the row): how recent the sign-in is. */
  created_at: Date;
}

export async function findSession(db: Db, id: string, lock = false): Promise<SessionRow | undefined> {
  const r = await db.query<SessionRow>(
    `select id, user_id, aal, amr, not_after, created_at from auth.sessions where id = $1${lock ? ' for update' : ''}`,
    [id],
  );
  return r.rows[0];
}

/** Signs the access token for an existing session and packs GoTrue's token response. */
export async function sessionResponse(
  deps: AuthDeps,
  db: Db,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
): Promise<SessionJson> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + deps.config.jwtExpiry;
  const accessToken = await signAccessToken(deps.keys, {
    iss: `${deps.publicUrl()}/auth/v1`,
    sub: user.id,
    aud: user.aud,
    exp,
    iat,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    role: user.role,
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  });
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: deps.config.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await userJson(db, user),
  };
}

/** A fresh session for a user who just proved who they are by `method`. */
export async function startSession(
  deps: AuthDeps,
  db: Db,
  user: UserRow,
  method: AmrMethod,
  meta: ClientMeta,
): Promise<SessionJson> {
  const amr: AmrEntry[] = [{ method, timestamp: Math.floor(Date.now() / 1000) }];
  const s = await db.query<SessionRow>(
    `insert into auth.sessions (user_id, amr, user_agent, ip) values ($1, $2, $3, $4)
     returning id, user_id, aal, amr, not_after, created_at`,
    [user.id, JSON.stringify(amr), meta.userAgent ?? null, meta.ip],
  );
  const session = s.rows[0]!;
  const refreshToken = randomToken(24);
  await db.query('insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)', [
    refreshToken,
    user.id,
    session.id,
  ]);
  await markSignedIn(db, user.id);
  const fresh = (await findUserById(db, user.id)) ?? user;
  return sessionResponse(deps, db, fresh, session, refreshToken);
}

export type LogoutScope = 'global' | 'local' | 'others';

export async function endSessions(db: Db, userId: string, sessionId: string, scope: LogoutScope): Promise<void> {
  if (scope === 'local') await db.query('delete from auth.sessions where id = $1', [sessionId]);
  else if (scope === 'others') await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
  else await db.query('delete from auth.sessions where user_id = $1', [userId]);
}

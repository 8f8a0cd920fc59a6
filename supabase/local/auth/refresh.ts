// grant_type=refresh_token: rotation with reuse detection.
// Invariants:
// - Each refresh token is used once: using it revokes it and issues its child in the same session.
// - A revoked token presented again is a leak signal, so the whole session is deleted, except for
//   the immediate parent of the session's current token within refreshReuseIntervalSec of its
//   rotation: that is a second tab (or a lost response) racing the first refresh, and it gets the
//   current child back instead of a new one, so concurrent tabs are not signed out.
// - Rotations of one session are serialised by locking the session row first (then the token),
//   the same order logout's cascade takes, so the two never deadlock.
import type { AuthDeps } from './deps.ts';
import { withTx } from './db.ts';
import { AuthError, badRequest } from './errors.ts';
import { findSession, sessionResponse, type SessionJson } from './sessions.ts';
import { findUserById, isBanned } from './users.ts';
import { randomToken } from './tokens.ts';

interface TokenRow {
  id: string;
  token: string;
  session_id: string;
  parent: string | null;
  revoked: boolean;
  updated_at: Date;
}

const notFoundError = () => badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
const alreadyUsed = () => badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');

export async function refreshGrant(deps: AuthDeps, presented: string): Promise<SessionJson> {
  // A detected reuse must commit the session's deletion and still answer with an error, so the
  // transaction returns the error instead of throwing it (a throw would roll the deletion back).
  const outcome = await withTx(deps.pool, async (db): Promise<SessionJson | AuthError> => {
    const first = await db.query<{ session_id: string }>('select session_id from auth.refresh_tokens where token = $1', [presented]);
    const sessionId = first.rows[0]?.session_id;
    if (!sessionId) return notFoundError();
    const session = await findSession(db, sessionId, true);
    if (!session) return notFoundError();
    const tr = await db.query<TokenRow>(
      'select id, token, session_id, parent, revoked, updated_at from auth.refresh_tokens where token = $1 for update',
      [presented],
    );
    const token = tr.rows[0];
    if (!token) return notFoundError();
    if (session.not_after && session.not_after.getTime() < Date.now()) {
      await db.query('delete from auth.sessions where id = $1', [session.id]);
      return new AuthError(403, 'session_expired', 'Session has expired');
    }
    const user = await findUserById(db, session.user_id);
    if (!user) return notFoundError();
    if (isBanned(user)) return badRequest('user_banned', 'User is banned');

    let issued: string;
    if (token.revoked) {
      const active = await db.query<TokenRow>(
        `select id, token, session_id, parent, revoked, updated_at from auth.refresh_tokens
         where session_id = $1 and not revoked order by id desc limit 1`,
        [session.id],
      );
      const current = active.rows[0];
      const graceMs = deps.config.refreshReuseIntervalSec * 1000;
      const inGrace = Date.now() - token.updated_at.getTime() <= graceMs;
      if (!current || current.parent !== token.token || !inGrace) {
        await db.query('delete from auth.sessions where id = $1', [session.id]);
        return alreadyUsed();
      }
      issued = current.token;
    } else {
      await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id]);
      issued = randomToken(24);
      await db.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
        issued,
        user.id,
        session.id,
        token.token,
      ]);
    }
    await db.query('update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1', [session.id]);
    return sessionResponse(deps, db, user, session, issued);
  });
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

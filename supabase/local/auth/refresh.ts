// grant_type=refresh_token: rotation with reuse detection, exactly as GoTrue's
// (supabase/auth internal/tokens/service.go `RefreshTokenGrant`, reached from
// internal/api/token_refresh.go; models/refresh_token.go `RevokeTokenFamily`,
// models/sessions.go `FindCurrentlyActiveRefreshToken`). Invariants:
// - A live token presented is revoked and its child issued in the same session.
// - A revoked token that is the parent of the session's currently active token (the newest live
//   one) is answered with that active token, however long ago it was rotated: the client refreshed
//   but never stored the reply (a lost response, a phone that slept), so it must not be signed out.
// - Any other revoked token within REFRESH_TOKEN_REUSE_INTERVAL of its revocation (updated_at) is
//   swapped once more for a new child, as GoTrue does.
// - Past the interval it is a real reuse: every live token of the session is revoked (updated_at
//   now), and the answer is 400 refresh_token_already_used, committed. Like GoTrue, the session row
//   stays, so its access tokens are accepted until they expire (SECURITY.md, JWT_EXPIRY window).
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
  // A detected reuse must commit the family's revocation and still answer with an error (GoTrue's
  // storage.NewCommitWithError), so the transaction returns the error instead of throwing it.
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
    const user = await findUserById(db, session.user_id);
    if (!user) return notFoundError();
    // GoTrue checks the ban before the session's validity, and answers both with 400.
    if (isBanned(user)) return badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    if (session.not_after && session.not_after.getTime() < Date.now()) {
      return badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
    }

    let issued: string | undefined;
    if (token.revoked) {
      const active = await db.query<TokenRow>(
        `select id, token, session_id, parent, revoked, updated_at from auth.refresh_tokens
         where session_id = $1 and not revoked order by id desc limit 1`,
        [session.id],
      );
      const current = active.rows[0];
      if (current && current.parent === token.token) {
        issued = current.token;
      } else if (Date.now() > token.updated_at.getTime() + deps.config.refreshReuseIntervalSec * 1000) {
        await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked', [
          session.id,
        ]);
        return alreadyUsed();
      }
    }
    if (issued === undefined) {
      // GoTrue's GrantRefreshTokenSwap (models/refresh_token.go). Its UpdateOnly(token, "revoked")
      // also writes updated_at (internal/storage/dial.go getExcludedColumns keeps it), so a token
      // swapped again within the interval starts a new interval, as here.
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

// What redeeming a mailed token does to the account, shared by POST /verify and the GET link:
// opening any link proves the mailbox, so the address is confirmed; an email_change token moves the
// account to the address it was sent to.
import type { Db } from './db.ts';
import { AuthError, badRequest, otpExpired, unprocessable } from './errors.ts';
import type { RedeemedToken } from './one-time-tokens.ts';
import type { AmrMethod } from './sessions.ts';
import { confirmEmail, findUserById, isBanned, emailTakenByOther, type UserRow } from './users.ts';

export async function applyRedeemed(db: Db, t: RedeemedToken): Promise<UserRow> {
  const user = await findUserById(db, t.user_id);
  if (!user) throw otpExpired();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (t.token_type === 'email_change') {
    if (await emailTakenByOther(db, t.relates_to, user.id)) {
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
    await db.query(
      `update auth.users set email = $2, email_change = null, email_confirmed_at = now(), updated_at = now() where id = $1`,
      [user.id, t.relates_to],
    );
    await db.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
         updated_at = now() where user_id = $1 and provider = 'email'`,
      [user.id, t.relates_to],
    );
  } else {
    await confirmEmail(db, user.id);
  }
  const fresh = await findUserById(db, user.id);
  if (!fresh) throw new AuthError(500, 'unexpected_failure', 'User vanished during verification');
  return fresh;
}

/** The amr method a redeemed token stands for: the link itself or the code typed from the mail. */
export function amrFor(t: RedeemedToken, byCode: boolean): AmrMethod {
  if (t.token_type === 'recovery') return 'recovery';
  if (t.token_type === 'magiclink' && !byCode) return 'magiclink';
  return 'otp';
}

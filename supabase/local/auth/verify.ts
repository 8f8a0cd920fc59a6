// What redeeming a mailed token does to the account, shared by POST /verify and the GET link:
// - opening any link proves the mailbox, so the address is confirmed;
// - pre-account takeover: when an address that was never confirmed is first proved by a link other
//   than the sign-up confirmation (magic link, recovery, invite), the password set by whoever signed
//   up unconfirmed is dropped: nobody proved they own the mailbox when it was chosen;
// - an email_change token moves the account to the new address only when it is the last required
//   confirmation (email-change.ts); before that the answer is "pending" and nobody signs in.
import type { Db } from './db.ts';
import { AuthError, badRequest, emailExists, otpExpired } from './errors.ts';
import type { RedeemedToken } from './one-time-tokens.ts';
import type { AmrMethod } from './sessions.ts';
import { confirmEmail, findUserById, isBanned, emailTakenByOther, type UserRow } from './users.ts';

export type Applied =
  | { kind: 'user'; user: UserRow; /** Set when the e-mail changed: the old address, to be told. */ oldEmail?: string }
  | { kind: 'pending' };

async function applyEmailChange(db: Db, user: UserRow, t: RedeemedToken): Promise<Applied> {
  // The token belongs to the change still pending; a newer request or a finished change voids it.
  if (!user.email_change || user.email_change.toLowerCase() !== t.relates_to.toLowerCase()) throw otpExpired();
  const r = await db.query<{ email_change_confirm_status: number }>(
    'select email_change_confirm_status from auth.users where id = $1 for update',
    [user.id],
  );
  if ((r.rows[0]?.email_change_confirm_status ?? 0) < 1) {
    await db.query('update auth.users set email_change_confirm_status = 1, updated_at = now() where id = $1', [user.id]);
    return { kind: 'pending' };
  }
  if (await emailTakenByOther(db, t.relates_to, user.id)) {
    throw emailExists();
  }
  await db.query(
    `update auth.users set email = $2, email_change = null, email_change_confirm_status = 0,
       email_confirmed_at = now(), updated_at = now() where id = $1`,
    [user.id, t.relates_to],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
       updated_at = now() where user_id = $1 and provider = 'email'`,
    [user.id, t.relates_to],
  );
  await db.query(`delete from auth.one_time_tokens where user_id = $1 and token_type in ('email_change', 'email_change_current')`, [user.id]);
  const fresh = await findUserById(db, user.id);
  if (!fresh) throw new AuthError(500, 'unexpected_failure', 'User vanished during verification');
  return { kind: 'user', user: fresh, ...(user.email ? { oldEmail: user.email } : {}) };
}

export async function applyRedeemed(db: Db, t: RedeemedToken): Promise<Applied> {
  const user = await findUserById(db, t.user_id);
  if (!user) throw otpExpired();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (t.token_type === 'email_change' || t.token_type === 'email_change_current') return applyEmailChange(db, user, t);
  if (!user.email_confirmed_at && t.token_type !== 'signup') {
    await db.query('update auth.users set encrypted_password = null where id = $1', [user.id]);
  }
  await confirmEmail(db, user.id);
  const fresh = await findUserById(db, user.id);
  if (!fresh) throw new AuthError(500, 'unexpected_failure', 'User vanished during verification');
  return { kind: 'user', user: fresh };
}

/** The amr method a redeemed token stands for: the link itself or the code typed from the mail. */
export function amrFor(t: RedeemedToken, byCode: boolean): AmrMethod {
  if (t.token_type === 'recovery') return 'recovery';
  if (t.token_type === 'magiclink' && !byCode) return 'magiclink';
  return 'otp';
}

// Mailed one-time tokens: a link token (32 random bytes) and a 6-digit code in the same row.
// Invariants:
// - Only SHA-256 hashes are stored, so a copy of the database cannot be used to sign in.
// - A token works once (consuming deletes the row) and for OTP_TTL_SEC (GoTrue's mailer otp_exp).
// - A user has at most one live token per type: a new link voids the older one.
// - A 6-digit code dies after MAX_CODE_ATTEMPTS wrong guesses against the user's live codes, so the
//   per-minute rate limits are not the only thing between a guesser and the one-in-a-million code.
// - A token requested with a PKCE challenge is redeemed only by opening its link (GET /verify),
//   which yields an auth code that needs the code verifier; POST /verify {token_hash} refuses it.
import type { AuthDeps } from './deps.ts';
import type { Db } from './db.ts';
import { otpHash, randomOtp, randomToken, sha256Hex, type ChallengeMethod } from './tokens.ts';

export type LinkType =
  | 'magiclink'
  | 'recovery'
  | 'signup'
  | 'invite'
  | 'email_change'
  /** Secure e-mail change: the link mailed to the current address (GoTrue email_change_token_current). */
  | 'email_change_current'
  /** GET /reauthenticate's nonce: a code only, never redeemable at /verify. */
  | 'reauthentication';

/** Wrong 6-digit guesses a user's live codes survive; the next wrong guess deletes them. */
export const MAX_CODE_ATTEMPTS = 5;

export const OTP_TTL_SEC = 3600;

/** Which stored token types a `type` sent to /verify may redeem. */
export const VERIFY_TYPES: Record<string, LinkType[]> = {
  email: ['magiclink', 'signup', 'invite'],
  magiclink: ['magiclink'],
  signup: ['signup'],
  invite: ['invite'],
  recovery: ['recovery'],
  email_change: ['email_change', 'email_change_current'],
};

const SENT_AT_COLUMN: Partial<Record<LinkType, string>> = {
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
  email_change_current: 'email_change_sent_at',
  reauthentication: 'reauthentication_sent_at',
};

export interface Pkce {
  challenge: string;
  method: ChallengeMethod;
}

export interface IssuedLink {
  /** The secret in the link; auth-js calls it hashed_token / token_hash. */
  token: string;
  code: string;
  actionLink: string;
  redirectTo: string;
}

export async function issueLink(
  deps: AuthDeps,
  db: Db,
  args: { userId: string; type: LinkType; relatesTo: string; redirectTo: string; pkce: Pkce | undefined },
): Promise<IssuedLink> {
  const token = randomToken(32);
  const code = randomOtp();
  await db.query(`delete from auth.one_time_tokens where created_at < now() - make_interval(secs => $1)`, [OTP_TTL_SEC]);
  await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [args.userId, args.type]);
  await db.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to, code_challenge, code_challenge_method, otp_hash)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [args.userId, args.type, sha256Hex(token), args.relatesTo, args.pkce?.challenge ?? null, args.pkce?.method ?? null, otpHash(args.userId, code)],
  );
  const column = SENT_AT_COLUMN[args.type] ?? 'confirmation_sent_at';
  await db.query(`update auth.users set ${column} = now() where id = $1`, [args.userId]);
  // Both e-mail-change links say type=email_change, as GoTrue's do (VERIFY_TYPES maps it to both).
  const linkType = args.type === 'email_change_current' ? 'email_change' : args.type;
  const q = new URLSearchParams({ token, type: linkType, redirect_to: args.redirectTo });
  return { token, code, actionLink: `${deps.publicUrl()}/auth/v1/verify?${q.toString()}`, redirectTo: args.redirectTo };
}

export interface RedeemedToken {
  user_id: string;
  token_type: LinkType;
  relates_to: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
}

const RETURNING = 'user_id, token_type, relates_to, code_challenge, code_challenge_method';

/**
 * Deletes and returns a live token of an allowed type; expired or unknown tokens return undefined.
 * `allowPkce` false (POST /verify) leaves a PKCE token untouched and unredeemed: only the link,
 * whose auth code needs the verifier, may spend it.
 */
export async function redeemLinkToken(
  db: Db,
  token: string,
  types: LinkType[],
  opts: { allowPkce: boolean },
): Promise<RedeemedToken | undefined> {
  const r = await db.query<RedeemedToken>(
    `delete from auth.one_time_tokens where token_hash = $1 and token_type = any($2)
       and created_at > now() - make_interval(secs => $3)
       and (code_challenge is null or $4)
     returning ${RETURNING}`,
    [sha256Hex(token), types, OTP_TTL_SEC, opts.allowPkce],
  );
  return r.rows[0];
}

export async function redeemCode(db: Db, userId: string, code: string, types: LinkType[]): Promise<RedeemedToken | undefined> {
  const r = await db.query<RedeemedToken>(
    `delete from auth.one_time_tokens where id = (
       select id from auth.one_time_tokens where user_id = $1 and otp_hash = $2 and token_type = any($3)
         and created_at > now() - make_interval(secs => $4) and failed_attempts < $5
       order by created_at desc limit 1)
     returning ${RETURNING}`,
    [userId, otpHash(userId, code), types, OTP_TTL_SEC, MAX_CODE_ATTEMPTS],
  );
  return r.rows[0];
}

/**
 * Counts a wrong code against every live code of these types of the user (a guess cannot be
 * attributed to one code), and deletes those that reached MAX_CODE_ATTEMPTS. Must run outside the
 * refused request's transaction, which rolls back.
 */
export async function recordWrongCode(db: Db, userId: string, types: LinkType[]): Promise<void> {
  await db.query(
    `update auth.one_time_tokens set failed_attempts = failed_attempts + 1
     where user_id = $1 and token_type = any($2) and otp_hash is not null`,
    [userId, types],
  );
  await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = any($2) and failed_attempts >= $3', [
    userId,
    types,
    MAX_CODE_ATTEMPTS,
  ]);
}

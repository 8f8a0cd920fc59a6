// Mailed one-time tokens: a link token (32 random bytes) and a 6-digit code in the same row.
// Invariants:
// - Only SHA-256 hashes are stored, so a copy of the database cannot be used to sign in.
// - A token works once (consuming deletes the row) and for OTP_TTL_SEC (GoTrue's mailer otp_exp).
// - A user has at most one live token per type: a new link voids the older one.
import type { AuthDeps } from './deps.ts';
import type { Db } from './db.ts';
import { otpHash, randomOtp, randomToken, sha256Hex, type ChallengeMethod } from './tokens.ts';

export type LinkType = 'magiclink' | 'recovery' | 'signup' | 'invite' | 'email_change';

export const OTP_TTL_SEC = 3600;

/** Which stored token types a `type` sent to /verify may redeem. */
export const VERIFY_TYPES: Record<string, LinkType[]> = {
  email: ['magiclink', 'signup', 'invite'],
  magiclink: ['magiclink'],
  signup: ['signup'],
  invite: ['invite'],
  recovery: ['recovery'],
  email_change: ['email_change'],
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
  const column = args.type === 'recovery' ? 'recovery_sent_at' : 'confirmation_sent_at';
  await db.query(`update auth.users set ${column} = now() where id = $1`, [args.userId]);
  const q = new URLSearchParams({ token, type: args.type, redirect_to: args.redirectTo });
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

/** Deletes and returns a live token of an allowed type; expired or unknown tokens return undefined. */
export async function redeemLinkToken(db: Db, token: string, types: LinkType[]): Promise<RedeemedToken | undefined> {
  const r = await db.query<RedeemedToken>(
    `delete from auth.one_time_tokens where token_hash = $1 and token_type = any($2)
       and created_at > now() - make_interval(secs => $3)
     returning ${RETURNING}`,
    [sha256Hex(token), types, OTP_TTL_SEC],
  );
  return r.rows[0];
}

export async function redeemCode(db: Db, userId: string, code: string, types: LinkType[]): Promise<RedeemedToken | undefined> {
  const r = await db.query<RedeemedToken>(
    `delete from auth.one_time_tokens where id = (
       select id from auth.one_time_tokens where user_id = $1 and otp_hash = $2 and token_type = any($3)
         and created_at > now() - make_interval(secs => $4)
       order by created_at desc limit 1)
     returning ${RETURNING}`,
    [userId, otpHash(userId, code), types, OTP_TTL_SEC],
  );
  return r.rows[0];
}

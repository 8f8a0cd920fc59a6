// Secrets the service hands out: HS256 access tokens with Supabase's claims, opaque refresh tokens,
// mailed one-time tokens (only their SHA-256 is stored) and PKCE checks.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { forbidden } from './errors.ts';

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface AccessClaims extends JWTPayload {
  sub?: string;
  role?: string;
  session_id?: string;
  email?: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(secret: string, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key(secret));
}

/** Signature and expiry only; whether the session still exists is the caller's check. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify<AccessClaims>(token, key(secret), { algorithms: ['HS256'] });
    return payload;
  } catch (err) {
    const reason =
      err instanceof joseErrors.JWTExpired ? 'token has invalid claims: token is expired' : 'signature is invalid';
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** The 6-digit code mailed beside a link. */
export const randomOtp = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/** Hash stored for a mailed code; salted with the user id so equal codes of two users differ. */
export const otpHash = (userId: string, code: string) => sha256Hex(`${userId}:${code}`);

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type ChallengeMethod = 's256' | 'plain';

export function parseChallengeMethod(raw: string): ChallengeMethod | undefined {
  const m = raw.toLowerCase();
  return m === 's256' || m === 'plain' ? m : undefined;
}

/** RFC 7636: S256 is the unpadded base64url SHA-256 of the verifier. */
export function verifierMatches(verifier: string, challenge: string, method: string): boolean {
  const derived =
    method.toLowerCase() === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return safeEqual(derived, challenge);
}

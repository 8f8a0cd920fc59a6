// Secrets the service hands out: access tokens with Supabase's claims, opaque refresh tokens,
// mailed one-time tokens (only their SHA-256 is stored) and PKCE checks.
// Access tokens are ES256, signed with the stack's P-256 signing key and naming it in the header's
// `kid`, as GoTrue does for projects with JWT signing keys (supabase/auth internal/conf/jwk.go: the
// signing key's alg and kid go into the header; internal/api/jwks.go serves the public halves).
// HS256 tokens signed with the legacy secret are still accepted (the anon / service_role keys).
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, importJWK, SignJWT, type JWTPayload } from 'jose';
import { verifyStackJwt, type SigningKey, type StackKeys } from '../keys.ts';
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

const privateKeys = new WeakMap<SigningKey, ReturnType<typeof importJWK>>();
function privateKeyOf(key: SigningKey) {
  let k = privateKeys.get(key);
  if (!k) privateKeys.set(key, (k = importJWK(key.privateJwk, 'ES256')));
  return k;
}

export async function signAccessToken(keys: StackKeys, claims: Record<string, unknown>): Promise<string> {
  const { signingKey } = keys;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: signingKey.kid })
    .sign(await privateKeyOf(signingKey));
}

/** Signature and expiry only; whether the session still exists is the caller's check. */
export async function verifyAccessToken(keys: StackKeys, token: string): Promise<AccessClaims> {
  try {
    return await verifyStackJwt(token, keys);
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

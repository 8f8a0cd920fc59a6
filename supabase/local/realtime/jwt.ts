// Verifies the token a channel runs as. Its claims become `request.jwt.claims` and its `role` the
// database role when RLS decides what the subscriber may see, so only tokens signed by the stack
// (ES256 user tokens with the signing key their kid names, or HS256 with the legacy secret: the
// anon / service_role keys) and naming one of Supabase's API roles are accepted (a token naming
// another role, e.g. a superuser, must never become the role events are read as). Supabase Realtime
// likewise picks the key by alg and kid: EC/RSA keys from the project's JWKS, HS* with the legacy
// secret (supabase/realtime lib/realtime_web/channels/auth/jwt_verification.ex generate_signer).
import { errors } from 'jose';
import { verifyStackJwt, type VerifyingKeys } from '../keys.ts';

export const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export interface VerifiedToken {
  claims: Record<string, unknown>;
  role: string;
  /** Expiry in unix seconds. */
  exp: number;
}

export type VerifyResult = { ok: true; token: VerifiedToken } | { ok: false; reason: string };

export async function verifyToken(token: string, keys: VerifyingKeys): Promise<VerifyResult> {
  let claims: Record<string, unknown>;
  try {
    claims = await verifyStackJwt(token, keys);
  } catch (err) {
    if (err instanceof errors.JWTExpired) {
      const exp = typeof err.payload.exp === 'number' ? err.payload.exp : Math.floor(Date.now() / 1000);
      return {
        ok: false,
        reason: `Token has expired ${Math.max(0, Math.floor(Date.now() / 1000) - exp)} seconds ago`,
      };
    }
    if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey)
      return { ok: false, reason: 'Failed to validate JWT signature' };
    return { ok: false, reason: `Invalid JWT: ${(err as Error).message}` };
  }
  const { role, exp } = claims;
  if (typeof role !== 'string' || typeof exp !== 'number')
    return { ok: false, reason: 'Fields `role` and `exp` are required in JWT' };
  if (!API_ROLES.has(role))
    return {
      ok: false,
      reason: `JWT role "${role}" is not allowed; use anon, authenticated or service_role`,
    };
  return { ok: true, token: { claims, role, exp } };
}

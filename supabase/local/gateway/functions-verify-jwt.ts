// The platform's verify_jwt check in front of an Edge Function, as hosted runs it in 2026:
//  - the Authorization bearer is a user JWT: HS256 ones against the legacy JWT secret, ES256 / RS256
//    ones against the project's JWKS (the public keys of /auth/v1/.well-known/jwks.json), chosen by
//    the token's own header — supabase/cli apps/cli-go/internal/functions/serve/templates/main.ts
//    (verifyHybridJWT: HS256 → secret, ES256|RS256 → JWKS, anything else refused);
//  - for migration compatibility a project's publishable or secret key passes the check on either
//    header (docs guides/functions/auth-headers.mdx, "API keys and the verify_jwt check"; the CLI's
//    gateway gets there by turning `apikey` into the role's token, internal/start/start.go
//    BearerToken). Passing does not authenticate anyone: the request reaches the handler with its
//    headers unchanged, and the handler decides (functions/_shared/caller.ts, service-caller.ts);
//  - refusals are 401 `{"code":401,"message":"Missing authorization header"}` or `… "Invalid JWT"`,
//    the hosted bodies (docs troubleshooting/edge-function-401-error-response.mdx).
// Invariant: an unknown sb_ string, a token signed by another key, an expired one and an algorithm
// other than those three never pass; the key is chosen by alg and kid together, so an HS256 token can
// never be checked against public-key bytes. With legacy API keys turned off the anon / service_role
// keys do not pass either, on either header (as the gateway refuses them on /rest/v1 and /storage/v1).
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { same, type ApiKeySet } from './api-key.ts';

export interface FunctionKeys extends ApiKeySet {
  /** The legacy HS256 secret (keys.ts). */
  jwtSecret: string;
  /** The project's public signing keys, as served at /auth/v1/.well-known/jwks.json. */
  jwks: { keys: JWK[] };
}

export type VerifyJwtResult = { ok: true } | { ok: false; body: Record<string, unknown> };

const missing = { ok: false, body: { code: 401, message: 'Missing authorization header' } } as const;
const invalid = { ok: false, body: { code: 401, message: 'Invalid JWT' } } as const;

const localSets = new WeakMap<object, ReturnType<typeof createLocalJWKSet>>();
function jwksOf(keys: FunctionKeys): ReturnType<typeof createLocalJWKSet> {
  let set = localSets.get(keys.jwks);
  if (!set) localSets.set(keys.jwks, (set = createLocalJWKSet(keys.jwks)));
  return set;
}

async function validJwt(keys: FunctionKeys, token: string): Promise<boolean> {
  try {
    const { alg } = decodeProtectedHeader(token);
    if (alg === 'HS256') {
      await jwtVerify(token, new TextEncoder().encode(keys.jwtSecret), { algorithms: ['HS256'] });
      return true;
    }
    if (alg === 'ES256' || alg === 'RS256') {
      await jwtVerify(token, jwksOf(keys), { algorithms: ['ES256', 'RS256'] });
      return true;
    }
    return false;
  } catch {
    return false;
  }
}

export async function platformVerifyJwt(
  keys: FunctionKeys,
  authorization: string | undefined,
  apikey: string | undefined,
): Promise<VerifyJwtResult> {
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  const sent = [bearer, apikey].filter((v): v is string => !!v);
  if (keys.legacyDisabled && sent.some((v) => same(v, keys.anonKey) || same(v, keys.serviceRoleKey))) {
    return { ok: false, body: { message: 'Legacy API keys are disabled' } };
  }
  const projectKey = (v: string) => same(v, keys.publishableKey) || same(v, keys.secretKey);
  if (authorization === undefined) return apikey && projectKey(apikey) ? { ok: true } : missing;
  if (bearer === undefined) return invalid;
  // `Bearer sb_…` (supabase-js without a session sends its key there): the project's key on either
  // header decides, as the CLI's gateway replaces such a bearer by the apikey's role token.
  if (bearer.startsWith('sb_')) return projectKey(bearer) || (!!apikey && projectKey(apikey)) ? { ok: true } : invalid;
  return (await validJwt(keys, bearer)) ? { ok: true } : invalid;
}

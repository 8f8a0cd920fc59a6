// The keys of one stack, generated once per DATA_DIR: the legacy HS256 JWT secret with the anon /
// service_role API keys signed by it, the opaque publishable / secret API keys that replace them, and the ES256 (P-256) signing key user access tokens are
// signed with, as Supabase projects with JWT signing keys do (supabase/auth internal/conf/jwk.go:
// a key carries a `kid`, the token header names it, the public half is served as JWKS).
// Invariant: keys live only in DATA_DIR/keys.json (mode 600), never in the repository; the JWKS the
// auth service serves holds public keys only, never the legacy secret.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors as joseErrors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';

export interface SigningKey {
  kid: string;
  /** Private P-256 JWK (d included); signs user access tokens. */
  privateJwk: JWK;
  /** Its public half, as served in the JWKS. */
  publicJwk: JWK;
}

export interface StackKeys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Opaque `sb_publishable_…` key: replaces anon (safe in browsers, RLS applies). */
  publishableKey: string;
  /** Opaque `sb_secret_…` key: replaces service_role (server side only, refused from browsers). */
  secretKey: string;
  signingKey: SigningKey;
}

/** What verifying a token needs: the legacy secret, and the signing key when the stack has one. */
export type VerifyingKeys = Pick<StackKeys, 'jwtSecret'> & Partial<Pick<StackKeys, 'signingKey'>>;

const TEN_YEARS = 10 * 365 * 24 * 3600;

export async function signApiKey(secret: string, role: 'anon' | 'service_role'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role, iss: 'poradna-local', ref: 'local' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + TEN_YEARS)
    .sign(new TextEncoder().encode(secret));
}

/**
 * A new-style API key: the prefix, 16 random bytes and an 8-character checksum, base64url, the shape of
 * Supabase's keys (supabase/cli pkg/config/apikeys.go defaults: `sb_publishable_` + 22 + `_` + 8).
 * Opaque: not a JWT, it carries no role; the gateway maps it to one (gateway/api-key.ts).
 */
export function newApiKey(kind: 'publishable' | 'secret'): string {
  const body = randomBytes(16).toString('base64url');
  const check = createHash('sha256').update(body).digest('base64url').slice(0, 8);
  return `sb_${kind}_${body}_${check}`;
}

export async function createSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const meta = { kid, alg: 'ES256', use: 'sig' };
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), ...meta },
    publicJwk: { ...(await exportJWK(publicKey)), ...meta },
  };
}

/** The public JWKS served at /auth/v1/.well-known/jwks.json (asymmetric public keys only). */
export function publicJwks(keys: Pick<StackKeys, 'signingKey'>): { keys: JWK[] } {
  return { keys: [keys.signingKey.publicJwk] };
}

/**
 * PostgREST's jwt-secret as a JWKS: the ES256 public key (user tokens) and the legacy secret as an
 * `oct` key (the anon / service_role keys and older HS256 tokens). PostgREST 12 accepts a JWKS there
 * (PostgREST docs, "JWT from Auth0"/jwt-secret: "a JSON Web Key Set"); a plain string is used as the
 * raw HMAC key bytes, so `k` is the base64url of the secret's UTF-8 bytes.
 */
export function postgrestJwks(keys: StackKeys): string {
  const oct: JWK = { kty: 'oct', k: Buffer.from(keys.jwtSecret, 'utf8').toString('base64url'), alg: 'HS256' };
  return JSON.stringify({ keys: [keys.signingKey.publicJwk, oct] });
}

export async function loadOrCreateKeys(dataDir: string, override?: { jwtSecret?: string }): Promise<StackKeys> {
  const file = join(dataDir, 'keys.json');
  let parsed: Partial<StackKeys> | undefined;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<StackKeys>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (parsed) {
    if (!parsed.jwtSecret || !parsed.anonKey || !parsed.serviceRoleKey) throw new Error(`${file} is incomplete`);
    const complete = parsed.signingKey?.privateJwk && parsed.signingKey.publicJwk && parsed.publishableKey && parsed.secretKey;
    if (complete) return parsed as StackKeys;
    // A DATA_DIR from before signing keys or the new API keys: add what is missing, keep the secret,
    // the legacy API keys and an existing signing key (issued keys and tokens stay valid).
    const upgraded: StackKeys = {
      jwtSecret: parsed.jwtSecret,
      anonKey: parsed.anonKey,
      serviceRoleKey: parsed.serviceRoleKey,
      publishableKey: parsed.publishableKey ?? newApiKey('publishable'),
      secretKey: parsed.secretKey ?? newApiKey('secret'),
      signingKey: parsed.signingKey?.privateJwk && parsed.signingKey.publicJwk ? parsed.signingKey : await createSigningKey(),
    };
    await writeFile(file, JSON.stringify(upgraded, null, 2), { mode: 0o600 });
    return upgraded;
  }
  const jwtSecret = override?.jwtSecret ?? randomBytes(40).toString('base64url');
  const keys: StackKeys = {
    jwtSecret,
    anonKey: await signApiKey(jwtSecret, 'anon'),
    serviceRoleKey: await signApiKey(jwtSecret, 'service_role'),
    publishableKey: newApiKey('publishable'),
    secretKey: newApiKey('secret'),
    signingKey: await createSigningKey(),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

const imported = new WeakMap<SigningKey, Promise<CryptoKey | Uint8Array>>();
/** The imported public key, once per signing key (every request verifies a token). */
function publicKeyOf(key: SigningKey): Promise<CryptoKey | Uint8Array> {
  let k = imported.get(key);
  if (!k) imported.set(key, (k = importJWK(key.publicJwk, 'ES256')));
  return k;
}

/**
 * Verifies a JWT as Supabase does once a project has signing keys: ES256 tokens against the signing
 * key their `kid` names, HS256 tokens (the legacy API keys, older sessions) against the legacy secret.
 * The key is chosen by the header's alg and kid together, so an HS256 token can never be checked
 * with public-key bytes (algorithm confusion) and an unknown kid is refused. Throws jose's errors.
 */
export async function verifyStackJwt(token: string, keys: VerifyingKeys): Promise<JWTPayload> {
  const secret = new TextEncoder().encode(keys.jwtSecret);
  const { payload } = await jwtVerify(
    token,
    async (header) => {
      if (header.alg === 'HS256') return secret;
      if (header.alg === 'ES256' && keys.signingKey && header.kid === keys.signingKey.kid)
        return publicKeyOf(keys.signingKey);
      throw new joseErrors.JWKSNoMatchingKey();
    },
    { algorithms: ['HS256', 'ES256'] },
  );
  return payload;
}

// Which keys the app runs with, for the admin's configuration card (issue 41): Supabase deprecates
// the legacy JWT `anon` key by the end of 2026 (docs getting-started/api-keys), and new projects sign
// user tokens with asymmetric keys checked through the JWKS (docs auth/signing-keys). Read from what
// the app already holds — the key /env.js handed it and the admin's own access token's header — never
// from a server answer, so the card tells what this browser really uses.

export type ApiKeyKind = 'publishable' | 'legacy' | 'unknown';

/** `sb_publishable_…` is a new key; a three-part JWT is the legacy anon key. */
export function apiKeyKind(key: string): ApiKeyKind {
  if (key.startsWith('sb_publishable_')) return 'publishable';
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(key) ? 'legacy' : 'unknown';
}

export type TokenSigning = 'asymmetric' | 'legacy' | 'unknown';

/** The signing of a user access token by its header's alg: ES256/RS256/EdDSA asymmetric, HS256 legacy. */
export function tokenSigning(token: string | null | undefined): { kind: TokenSigning; alg: string | null } {
  const head = token?.split('.')[0];
  if (!head) return { kind: 'unknown', alg: null };
  try {
    const header = JSON.parse(atob(head.replace(/-/g, '+').replace(/_/g, '/'))) as { alg?: unknown };
    const alg = typeof header.alg === 'string' ? header.alg : null;
    if (alg === 'HS256') return { kind: 'legacy', alg };
    if (alg === 'ES256' || alg === 'RS256' || alg === 'EdDSA') return { kind: 'asymmetric', alg };
    return { kind: 'unknown', alg };
  } catch {
    return { kind: 'unknown', alg: null };
  }
}

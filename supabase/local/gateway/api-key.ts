// Supabase's API gateway admits a request to /rest/v1, /auth/v1 and /realtime/v1 only with a known API
// key in the `apikey` header or query parameter, and answers 401 in Kong's shape ({"message"})
// otherwise. It then decides the Authorization the service behind it sees (resolveApiKey).
import { timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'hono';

export interface ApiKeySet {
  /** Legacy HS256 JWT keys; the services below the gateway still see these as the role tokens. */
  anonKey: string;
  serviceRoleKey: string;
  /** Opaque new keys (keys.ts newApiKey). */
  publishableKey: string;
  secretKey: string;
  /** The dashboard's "disable legacy API keys" (config LEGACY_API_KEYS=false). */
  legacyDisabled?: boolean;
}

/** Constant-time equality: a key compared byte by byte must not leak how much of it matched. */
export function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type KeyDecision =
  | { ok: true; role: 'anon' | 'service_role'; authorization: string }
  | { ok: false; message: string; hint?: string };

/**
 * A browser, as the hosted gateway tells one: its User-Agent. Every browser engine's User-Agent starts
 * with "Mozilla/" (so do PowerShell's Invoke-WebRequest and Google Apps Script, which hosted also
 * refuses with a secret key); server runtimes (Node's fetch "node", Deno "Deno/…", curl) do not.
 */
export function isBrowserUserAgent(userAgent: string | undefined): boolean {
  return /^Mozilla\//.test(userAgent ?? '');
}

const LEGACY_DISABLED = {
  ok: false,
  message: 'Legacy API keys are disabled',
  hint: 'The anon and service_role keys are turned off (LEGACY_API_KEYS=false); use the publishable or secret key.',
} as const;

/**
 * What the gateway does with a request's keys, as supabase/cli's local gateway does it for the new keys
 * (apps/cli-go/internal/start/start.go, the kong `BearerToken` rule):
 * - an Authorization that is not `Bearer sb_…` (a user's JWT, a legacy key) is passed on unchanged;
 * - otherwise (none, or a new key sent as Bearer, as supabase-js does without a session) the apikey
 *   decides: the secret key → the service_role token, the publishable key → the anon token, a legacy
 *   key → itself. So a publishable or secret key in Authorization never chooses the role: only the
 *   apikey does, and a publishable apikey always runs as anon.
 * Refused (401): no key, an unknown key, the secret key from a browser ("Forbidden use of secret API
 * key in browser", hosted), and with legacy keys disabled a legacy key as apikey or as Bearer (else a
 * leaked service_role key would still work beside the publishable key).
 */
export function resolveApiKey(
  keys: ApiKeySet,
  apikey: string | undefined | null,
  authorization: string | undefined | null,
  userAgent: string | undefined,
): KeyDecision {
  if (!apikey) return { ok: false, message: 'No API key found in request' };
  const isSecret = same(apikey, keys.secretKey);
  const isService = same(apikey, keys.serviceRoleKey);
  const legacy = isService || same(apikey, keys.anonKey);
  if (!legacy && !isSecret && !same(apikey, keys.publishableKey)) return { ok: false, message: 'Invalid API key' };
  if (legacy && keys.legacyDisabled) return LEGACY_DISABLED;
  if (isSecret && isBrowserUserAgent(userAgent))
    return { ok: false, message: 'Forbidden use of secret API key in browser' };
  const role = isSecret || isService ? 'service_role' : 'anon';
  if (authorization && !authorization.startsWith('Bearer sb_')) {
    const bearer = /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (keys.legacyDisabled && (bearer === keys.anonKey || bearer === keys.serviceRoleKey)) return LEGACY_DISABLED;
    return { ok: true, role, authorization };
  }
  return { ok: true, role, authorization: `Bearer ${role === 'service_role' ? keys.serviceRoleKey : keys.anonKey}` };
}

/**
 * fillMissing: a request without Authorization gets the resolved one (PostgREST needs a role token:
 * /rest/v1, as the REST proxy always did with the apikey); off for /auth/v1, whose endpoints answer
 * GoTrue's own 401 no_authorization to a request without one (tests/server/auth.test.ts).
 */
export function apiKeyGuard(keys: ApiKeySet, opts: { fillMissing: boolean }) {
  return async (c: Context, next: Next): Promise<Response | void> => {
    const decision = resolveApiKey(
      keys,
      c.req.header('apikey') ?? c.req.query('apikey'),
      c.req.header('authorization'),
      c.req.header('user-agent'),
    );
    if (!decision.ok) {
      const { ok: _ok, ...body } = decision;
      return c.json(body, 401);
    }
    const sent = c.req.header('authorization');
    if (sent !== decision.authorization && (sent !== undefined || opts.fillMissing)) {
      // The services below read Authorization: hand them the resolved one (the body stream moves on
      // with the request; duplex 'half' is what Node needs for that).
      const raw = c.req.raw;
      const headers = new Headers(raw.headers);
      headers.set('authorization', decision.authorization);
      const hasBody = raw.method !== 'GET' && raw.method !== 'HEAD' && raw.body !== null;
      const init: RequestInit & { duplex?: 'half' } = { headers, ...(hasBody ? { duplex: 'half' as const } : {}) };
      c.req.raw = new Request(raw, init);
    }
    await next();
  };
}

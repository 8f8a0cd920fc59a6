// The API gateway's part of a /storage/v1 request. Hosted Storage sits behind the same gateway as
// REST and auth: its route carries the same Authorization rewrite (supabase/cli
// internal/start/templates/kong.yml, service `storage-v1`: request-transformer "Authorization:
// {{ .BearerToken }}"), so the new sb_publishable_/sb_secret_ keys become the anon/service_role role
// tokens here exactly as on /rest/v1, and with LEGACY_API_KEYS=false a legacy key is refused here too.
// Invariant: storage's own routes (and @tus/server) only ever see an Authorization the gateway's
// resolveApiKey (gateway/api-key.ts) produced, or none.
// Unlike /rest/v1, the storage route has no key-auth plugin: a request without any apikey passes (a
// signed URL is opened by a plain <img>), and its Authorization is checked by storage itself.
import type { Context, Next } from 'hono';
import { resolveApiKey, type ApiKeySet } from '../gateway/api-key.ts';

const LEGACY_OFF = { message: 'Legacy API keys are disabled' };

function withAuthorization(c: Context, authorization: string | null): void {
  const raw = c.req.raw;
  if ((raw.headers.get('authorization') ?? null) === authorization) return;
  const headers = new Headers(raw.headers);
  if (authorization === null) headers.delete('authorization');
  else headers.set('authorization', authorization);
  const hasBody = raw.method !== 'GET' && raw.method !== 'HEAD' && raw.body !== null;
  // The body stream moves on with the request (duplex 'half' is what Node needs for that).
  const init: RequestInit & { duplex?: 'half' } = { headers, ...(hasBody ? { duplex: 'half' as const } : {}) };
  c.req.raw = new Request(raw, init);
}

export function storageKeyGate(keys: ApiKeySet) {
  return async (c: Context, next: Next): Promise<Response | void> => {
    const apikey = c.req.header('apikey') ?? c.req.query('apikey');
    const authorization = c.req.header('authorization');
    if (apikey) {
      const decision = resolveApiKey(keys, apikey, authorization, c.req.header('user-agent'));
      if (!decision.ok) {
        const { ok: _ok, ...body } = decision;
        // Readable by a page of another origin, as storage's own answers are (server.ts cors).
        c.header('access-control-allow-origin', '*');
        return c.json(body, 401);
      }
      withAuthorization(c, decision.authorization);
    } else if (authorization) {
      const bearer = /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
      // kong.yml's BearerToken: a `Bearer sb_…` with no apikey resolves to the (absent) apikey: no
      // Authorization reaches storage, which answers its own "authorization required".
      if (authorization.startsWith('Bearer sb_')) withAuthorization(c, null);
      else if (keys.legacyDisabled && (bearer === keys.anonKey || bearer === keys.serviceRoleKey)) {
        c.header('access-control-allow-origin', '*');
        return c.json(LEGACY_OFF, 401);
      }
    }
    await next();
  };
}

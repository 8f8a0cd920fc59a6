// Who may run the worker: the service role, proven without comparing against the legacy
// SUPABASE_SERVICE_ROLE_KEY string (which a project may rotate or disable, and which a cron job on
// a project with new API keys does not send):
//  - a secret API key (sb_secret_…): one of the project's keys in SUPABASE_SECRET_KEYS (a JSON
//    object name → key, as the platform provides it to functions; supabase.com/docs/guides/functions/
//    secrets) or SUPABASE_SECRET_KEY, compared in constant time. Read from the `apikey` header, where
//    Supabase says API keys go (docs guides/functions/auth-headers.mdx; @supabase/server's 'secret'
//    mode reads only that header, src/core/verify-credentials.ts), or as the Bearer, which
//    supabase-js and the cron jobs' pg_net calls send as well;
//  - an ES256 JWT: verified against the project's JWKS with auth.getClaims(), role service_role;
//  - an HS256 JWT (the legacy service_role key): verified by the auth server itself, whose admin API
//    answers only a correctly signed admin-role JWT.
// Anything else is 403 "Service role required"; the auth server unreachable is 503.
import { createClient } from '@supabase/supabase-js';
import { publicKey, secretKeys } from '../_shared/api-keys.ts';
import { bearerToken } from '../_shared/clients.ts';
import { secretsEqual } from '../_shared/chatwoot/webhook-auth.ts';
import { HttpError } from '../_shared/http.ts';
import type { FunctionEnv } from '../_shared/types.ts';

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;
const refused = () => new HttpError(403, 'Service role required');
const unavailable = (status: number | undefined) => status === 0 || (status ?? 0) >= 500;

function jwtAlg(token: string): string | undefined {
  try {
    const header = JSON.parse(atob(token.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/'))) as { alg?: unknown };
    return typeof header.alg === 'string' ? header.alg : undefined;
  } catch {
    return undefined;
  }
}

async function isSecretKey(env: FunctionEnv, value: string): Promise<boolean> {
  for (const key of secretKeys(env)) if (await secretsEqual(value, key)) return true;
  return false;
}

export async function requireServiceRole(req: Request, env: FunctionEnv): Promise<void> {
  const apikey = req.headers.get('apikey') ?? '';
  if (apikey.startsWith('sb_secret_') && (await isSecretKey(env, apikey))) return;
  const token = bearerToken(req) ?? '';
  if (token.startsWith('sb_secret_')) {
    if (await isSecretKey(env, token)) return;
    throw refused();
  }
  const alg = jwtAlg(token);
  if (!alg) throw refused();
  const client = createClient(env.SUPABASE_URL, publicKey(env), { auth: noSession });
  if (alg === 'ES256') {
    const { data, error } = await client.auth.getClaims(token);
    if (unavailable(error?.status)) throw new HttpError(503, 'The service is not available right now; retry shortly');
    if (error || data?.claims.role !== 'service_role') throw refused();
    return;
  }
  if (alg !== 'HS256') throw refused();
  const admin = createClient(env.SUPABASE_URL, token, {
    auth: noSession,
    global: { headers: { apikey: publicKey(env) } },
  });
  const { error } = await admin.auth.admin.listUsers({ page: 1, perPage: 1 });
  if (unavailable(error?.status)) throw new HttpError(503, 'The service is not available right now; retry shortly');
  if (error) throw refused();
}

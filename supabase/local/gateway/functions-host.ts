// /functions/v1/<name>: hosts supabase/functions/<name>/handler.ts with Supabase's conventions:
// the platform's verify_jwt check unless supabase/config.toml turns it off (functions-verify-jwt.ts:
// user JWTs by the legacy secret or the JWKS, the project's new keys for migration compatibility,
// 401 {"code":401,"message":…}), the handler gets the request's headers unchanged, env as a hosted
// project gives it (stack.ts functionEnv), 404 for an unknown name. A crashing handler gets a 500
// without internals; the host keeps serving.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import type { FunctionEnv, FunctionHandler } from '../../functions/_shared/types.ts';
import { DB_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db-unavailable.ts';
import { platformVerifyJwt, type FunctionKeys } from './functions-verify-jwt.ts';

const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Reads `[functions.<name>] verify_jwt = false` entries from supabase/config.toml. */
export async function readVerifyJwtFlags(configToml: string): Promise<Map<string, boolean>> {
  const flags = new Map<string, boolean>();
  let text: string;
  try {
    text = await readFile(configToml, 'utf8');
  } catch {
    return flags;
  }
  let current: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const section = /^\[functions\.([A-Za-z0-9_-]+)\]$/.exec(line);
    if (section) {
      current = section[1];
      continue;
    }
    if (line.startsWith('[')) current = undefined;
    const kv = /^verify_jwt\s*=\s*(true|false)$/.exec(line);
    if (current && kv) flags.set(current, kv[1] === 'true');
  }
  return flags;
}

export interface FunctionsHostOptions {
  functionsDir: string;
  configToml: string;
  /** What the verify_jwt check needs: the legacy secret, the JWKS, the API keys and their setting. */
  keys: FunctionKeys;
  env: () => FunctionEnv;
  /**
   * The caller's address. The handler gets it as the only X-Forwarded-For value (whatever the client
   * sent is replaced), as on Supabase, where the edge puts the client's IP first in X-Forwarded-For
   * (maintainer answer: github.com/orgs/supabase/discussions/7884). Functions limit per client on it.
   */
  clientAddress?: (c: Context) => string;
}

export function functionsHost(opts: FunctionsHostOptions) {
  const cache = new Map<string, Promise<FunctionHandler | undefined>>();
  let flags: Promise<Map<string, boolean>> | undefined;

  const load = (name: string) => {
    let p = cache.get(name);
    if (!p) {
      p = (async () => {
        const file = join(opts.functionsDir, name, 'handler.ts');
        try {
          if (!(await stat(file)).isFile()) return undefined;
        } catch {
          return undefined;
        }
        const mod = (await import(pathToFileURL(file).href)) as { default?: FunctionHandler };
        return mod.default;
      })();
      cache.set(name, p);
    }
    return p;
  };

  return async (c: Context) => {
    const name = c.req.param('name') ?? '';
    if (!NAME_RE.test(name) || name.startsWith('_'))
      return c.json({ code: 'NOT_FOUND', message: 'Requested function was not found' }, 404);
    let handler: FunctionHandler | undefined;
    try {
      handler = await load(name);
    } catch (err) {
      console.error(`functions: ${name} failed to load:`, err);
      return c.json({ code: 'BOOT_ERROR', message: 'Function failed to start' }, 503);
    }
    if (!handler) return c.json({ code: 'NOT_FOUND', message: 'Requested function was not found' }, 404);

    flags ??= readVerifyJwtFlags(opts.configToml);
    const verify = (await flags).get(name) ?? true;
    if (verify && c.req.method !== 'OPTIONS') {
      const checked = await platformVerifyJwt(opts.keys, c.req.header('authorization'), c.req.header('apikey'));
      if (!checked.ok) return c.json(checked.body, 401);
    }
    try {
      const res = await handler(withClientAddress(c, opts.clientAddress), opts.env());
      if (c.req.method === 'HEAD') return new Response(null, { status: res.status, headers: res.headers });
      return res;
    } catch (err) {
      if (isDatabaseUnavailable(err)) return c.json({ code: 'DATABASE_UNAVAILABLE', message: DB_UNAVAILABLE_MESSAGE }, 503);
      console.error(`functions: ${name} threw:`, err);
      return c.json({ error: 'Internal error' }, 500);
    }
  };
}

/** The request with X-Forwarded-For set to the caller's address (client-sent values dropped). */
function withClientAddress(c: Context, clientAddress: ((c: Context) => string) | undefined): Request {
  const raw = c.req.raw;
  if (!clientAddress) return raw;
  const headers = new Headers(raw.headers);
  headers.set('x-forwarded-for', clientAddress(c));
  const hasBody = raw.method !== 'GET' && raw.method !== 'HEAD' && raw.body !== null;
  // duplex 'half' is what Node's fetch needs to pass a streamed body on; Deno ignores it.
  const init: RequestInit & { duplex?: 'half' } = { headers, ...(hasBody ? { duplex: 'half' as const } : {}) };
  return new Request(raw, init);
}

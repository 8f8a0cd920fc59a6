// /rest/v1/* forwarded to the PostgREST child. PostgREST decides everything (role from the JWT, RLS);
// the proxy only strips the prefix, defaults Authorization to the API key as Supabase does, and maps
// an unreachable PostgREST to a PostgREST-shaped 503 so clients see a clear error.
import type { Context } from 'hono';

const HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length'];

export function restProxy(getUpstream: () => string | undefined) {
  return async (c: Context) => {
    const upstream = getUpstream();
    const url = new URL(c.req.url);
    const path = url.pathname.replace(/^\/rest\/v1/, '') || '/';
    if (!upstream) return c.json({ code: 'PGRST000', message: 'Database API is not available', details: null, hint: 'retry later' }, 503);
    const headers = new Headers(c.req.raw.headers);
    for (const h of HOP) headers.delete(h);
    if (!headers.get('authorization')) {
      const key = c.req.header('apikey') ?? url.searchParams.get('apikey');
      if (key) headers.set('authorization', `Bearer ${key}`);
    }
    url.searchParams.delete('apikey');
    const method = c.req.method;
    const hasBody = method !== 'GET' && method !== 'HEAD';
    let res: Response;
    try {
      res = await fetch(`${upstream}${path}${url.search}`, {
        method,
        headers,
        body: hasBody ? await c.req.raw.arrayBuffer() : null,
        redirect: 'manual',
      });
    } catch {
      return c.json({ code: 'PGRST000', message: 'Database API is not available', details: null, hint: 'retry later' }, 503);
    }
    const out = new Headers(res.headers);
    for (const h of ['content-encoding', 'transfer-encoding', 'connection', 'content-length']) out.delete(h);
    return new Response(res.body, { status: res.status, headers: out });
  };
}

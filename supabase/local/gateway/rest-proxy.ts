// /rest/v1/* forwarded to the PostgREST child. PostgREST decides everything (role from the JWT, RLS);
// the proxy only strips the prefix, defaults Authorization to the API key as Supabase does, and maps
// an unreachable PostgREST to a PostgREST-shaped 503 so clients see a clear error.
//
// Served by Node's HTTP server (the stack), the proxy talks node:http to PostgREST over a keep-alive
// agent and writes the answer straight to the client's socket: no WHATWG Request/Response/fetch on
// the hot path, which cost more CPU than PostgREST itself (bench row 10a). Headers that earlier
// middleware put on the response (CORS) are carried over. Without a Node request (Hono's
// app.request() in tests) the same rules run over fetch.
import { Agent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Context } from 'hono';

const HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length'];
const UNAVAILABLE = { code: 'PGRST000', message: 'Database API is not available', details: null, hint: 'retry later' };

// Tells @hono/node-server that the response was written to the socket already. The adapter honours
// the x-hono-already-sent header only for a response without its fast-path cache; one with the cache
// (its own Response class with a null body, which is what `new Response` makes once it replaced the
// global, and what Hono's header merge makes of the library's shared RESPONSE_ALREADY_SENT) is written
// again: ERR_HTTP_HEADERS_SENT logged per request. Reading .body drops the cache, so the marker is
// honoured whether or not a middleware touched c.res (tests/server/gateway-double-write.test.ts).
const alreadySent = () => {
  const res = new Response(null, { headers: { 'x-hono-already-sent': 'true' } });
  void res.body;
  return res;
};

// One pool of sockets to PostgREST for the whole process; PostgREST queues requests beyond its own
// database pool, so the socket count only needs to cover the concurrent clients.
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** The upstream path: prefix stripped, the apikey query parameter removed. */
function upstreamPath(reqUrl: string): { path: string; apikeyParam: string | null } {
  const url = new URL(reqUrl);
  const path = url.pathname.replace(/^\/rest\/v1/, '') || '/';
  const apikeyParam = url.searchParams.get('apikey');
  if (apikeyParam !== null) url.searchParams.delete('apikey');
  return { path: `${path}${url.search}`, apikeyParam };
}

export function restProxy(getUpstream: () => string | undefined) {
  return async (c: Context) => {
    const upstream = getUpstream();
    if (!upstream) return c.json(UNAVAILABLE, 503);
    const { path, apikeyParam } = upstreamPath(c.req.url);
    const method = c.req.method;
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const env = c.env as NodeBindings | undefined;
    if (env?.incoming && env.outgoing) return forwardNode(c, env.incoming, env.outgoing, upstream, path, apikeyParam, hasBody);

    const headers = new Headers(c.req.raw.headers);
    for (const h of HOP) headers.delete(h);
    if (!headers.get('authorization')) {
      const key = c.req.header('apikey') ?? apikeyParam;
      if (key) headers.set('authorization', `Bearer ${key}`);
    }
    let res: Response;
    try {
      res = await fetch(`${upstream}${path}`, {
        method,
        headers,
        body: hasBody ? await c.req.raw.arrayBuffer() : null,
        redirect: 'manual',
      });
    } catch {
      return c.json(UNAVAILABLE, 503);
    }
    const out = new Headers(res.headers);
    for (const h of ['content-encoding', 'transfer-encoding', 'connection', 'content-length']) out.delete(h);
    return new Response(res.body, { status: res.status, headers: out });
  };
}

async function forwardNode(
  c: Context,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  upstream: string,
  path: string,
  apikeyParam: string | null,
  hasBody: boolean,
): Promise<Response> {
  const headers: OutgoingHttpHeaders = { ...incoming.headers };
  for (const h of HOP) delete headers[h];
  // The Authorization the API-key guard resolved (api-key.ts) is on the WHATWG request, not on the
  // Node one: take it from there.
  const resolved = c.req.header('authorization');
  if (resolved) headers['authorization'] = resolved;
  else {
    const key = incoming.headers['apikey'] ?? apikeyParam;
    if (key) headers['authorization'] = `Bearer ${Array.isArray(key) ? key[0] : key}`;
  }
  // The body was already taken over by the body-limit middleware (a WHATWG stream): read it whole
  // (at most 1 MB) and send it with its length.
  const body = hasBody ? Buffer.from(await c.req.raw.arrayBuffer()) : null;
  if (body) headers['content-length'] = String(body.length);
  const target = new URL(upstream);
  return new Promise<Response>((resolve) => {
    const up = httpRequest({ host: target.hostname, port: target.port, method: c.req.method, path, headers, agent }, (res) => {
      const out: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') out[k] = v;
      }
      c.res.headers.forEach((v, k) => {
        if (k !== 'content-type') out[k] = v;
      });
      outgoing.writeHead(res.statusCode ?? 502, out);
      res.pipe(outgoing);
      res.on('error', () => outgoing.destroy());
      resolve(alreadySent());
    });
    up.on('error', () => {
      if (outgoing.headersSent) outgoing.destroy();
      else resolve(c.json(UNAVAILABLE, 503));
    });
    up.end(body ?? undefined);
  });
}

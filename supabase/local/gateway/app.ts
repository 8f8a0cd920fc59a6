// The single public origin: /auth/v1, /rest/v1, /functions/v1, /_dev, and the PWA. (/realtime/v1 is a
// websocket upgrade handled on the HTTP server itself.) Routes are testable with app.request().
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { except } from 'hono/combine';
import { cors } from 'hono/cors';
import { apiKeyGuard, type ApiKeySet } from './api-key.ts';
import { securityHeaders } from './security-headers.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface GatewayParts {
  keys: ApiKeySet;
  auth: Hono;
  rest: (c: Context) => Promise<Response>;
  functions: (c: Context) => Promise<Response>;
  devMail: Hono;
  web: (c: Context) => Promise<Response>;
  /** False until PostgreSQL, migrations and PostgREST are up. */
  ready: () => boolean;
  /** The URL browsers use (the CSP's connect-src names it). */
  publicUrl: () => string;
}

function tooLarge(c: Context): Response {
  // The rest of the body is never read: close the connection so a keep-alive client cannot reuse it
  // (its next request would be read as this body). It closes after a lingering read of what is still
  // arriving, never at once (gateway/lingering-close.ts).
  c.header('Connection', 'close');
  const path = c.req.path;
  if (path.startsWith('/rest/')) {
    return c.json({ code: 'PGRST413', message: 'Request body is larger than 1 MB', details: null, hint: null }, 413);
  }
  if (path.startsWith('/auth/')) {
    c.header('X-Supabase-Api-Version', '2024-01-01');
    return c.json({ code: 'request_too_large', message: 'Request body is larger than 1 MB', msg: 'Request body is larger than 1 MB' }, 413);
  }
  return c.json({ error: 'Request body is larger than 1 MB' }, 413);
}

export function createGateway(parts: GatewayParts): Hono {
  const app = new Hono();
  app.use('*', securityHeaders(parts.publicUrl));
  // Every route but /_dev answers browsers of any origin, as Supabase's API does. /_dev never sends
  // CORS headers (not even to a preflight): another origin must not read the mailbox (dev-mail.ts).
  const apiCors = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: [
      'apikey', 'authorization', 'x-client-info', 'content-type', 'prefer', 'accept-profile',
      'content-profile', 'x-supabase-api-version', 'x-retry-count', 'range', 'accept',
    ],
    exposeHeaders: ['Content-Range', 'X-Supabase-Api-Version', 'Range', 'Preference-Applied'],
    maxAge: 86400,
  });
  app.use('*', except(['/_dev', '/_dev/*'], apiCors));
  app.use('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge }));
  app.use('/rest/*', async (c, next) => {
    if (!parts.ready()) return c.json({ code: 'PGRST000', message: 'Starting up, retry shortly', details: null, hint: null }, 503);
    await next();
  });

  const guard = apiKeyGuard(parts.keys, { fillMissing: false });
  // The mailed link (GET /auth/v1/verify) is opened from a mail client and carries no API key.
  app.use('/auth/v1/*', async (c: Context, next) => {
    if (c.req.method === 'GET' && c.req.path === '/auth/v1/verify') return next();
    return guard(c, next);
  });
  app.route('/auth/v1', parts.auth);
  app.use('/rest/v1/*', apiKeyGuard(parts.keys, { fillMissing: true }));
  app.all('/rest/v1/*', parts.rest);
  app.all('/rest/v1', parts.rest);
  app.all('/functions/v1/:name', parts.functions);
  app.all('/functions/v1/:name/*', parts.functions);
  app.all('/functions/v1', (c) => c.json({ code: 'NOT_FOUND', message: 'Requested function was not found' }, 404));
  app.route('/_dev', parts.devMail);
  app.all('/realtime/v1/*', (c) => c.json({ message: 'Use a websocket upgrade at /realtime/v1/websocket' }, 400));
  app.all('*', parts.web);

  app.onError((err, c) => {
    // A client that went away in the middle of its body (or was cut for stalling it, slow-clients.ts)
    // is no server error: nobody reads the answer, and a log line per aborted request would let a
    // client fill the log.
    if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') return c.json({ message: 'Request aborted by the client' }, 400);
    console.error('gateway error:', err);
    return c.json({ message: 'Internal server error' }, 500);
  });
  return app;
}

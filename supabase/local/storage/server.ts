// The Storage API of the local stack, mounted at /storage/v1 ahead of the gateway (stack.ts): its
// uploads are up to 25 MB, past the gateway's 1 MB body limit, and TUS needs its own CORS headers
// (@tus/server answers them). Like hosted Storage behind Kong, no `apikey` is required: every route
// but a signed-URL GET verifies the caller's bearer token itself (caller.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type pg from 'pg';
import type { VerifyingKeys } from '../keys.ts';
import type { ApiKeySet } from '../gateway/api-key.ts';
import { storageKeyGate } from './api-keys.ts';
import type { StorageDeps } from './deps.ts';
import { STORAGE_CSP } from './content.ts';
import { StorageError } from './errors.ts';
import { objectRoutes } from './routes-object.ts';
import { ObjectStore } from './store.ts';
import { createTusServer, TUS_PATH } from './tus.ts';

export const STORAGE_PREFIX = '/storage/v1';

export interface StorageService {
  /** True for a request this service answers. */
  owns(url: string | undefined): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  app: Hono;
}

export async function createStorage(opts: {
  pool: pg.Pool;
  keys: VerifyingKeys & { jwtSecret: string };
  /** The gateway's API keys and legacy-key setting (api-keys.ts): the same resolution as /rest/v1. */
  apiKeys: ApiKeySet;
  dataDir: string;
}): Promise<StorageService> {
  const store = new ObjectStore(opts.pool, opts.dataDir);
  await store.init();
  const deps: StorageDeps = { pool: opts.pool, store, keys: opts.keys, jwtSecret: opts.keys.jwtSecret, dataDir: opts.dataDir };
  const tus = createTusServer(deps);

  const app = new Hono().basePath(STORAGE_PREFIX);
  // First, before TUS and the object routes: what reaches them carries the gateway's Authorization.
  app.use('*', storageKeyGate(opts.apiKeys));
  app.all('/upload/resumable', (c) => tus.handleWeb(c.req.raw));
  app.all('/upload/resumable/*', (c) => tus.handleWeb(c.req.raw));
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowHeaders: ['apikey', 'authorization', 'x-client-info', 'content-type', 'x-upsert', 'cache-control', 'x-metadata', 'range'],
      exposeHeaders: ['Content-Length', 'Content-Range', 'ETag', 'Content-Disposition'],
      maxAge: 86400,
    }),
  );
  app.use('*', async (c, next) => {
    await next();
    // Every storage answer, errors included, is inert if a browser opens it.
    c.res.headers.set('x-content-type-options', 'nosniff');
    c.res.headers.set('content-security-policy', STORAGE_CSP);
  });
  app.route('/', objectRoutes(deps));
  app.notFound((c) => c.json(new StorageError(404, 'NotFound', 'Route not found').body(), 404));
  app.onError((err, c) => {
    if (err instanceof StorageError) {
      // A refusal before the body has all arrived (a 413 from the declared length, a 400 for a missing
      // one) closes the connection, so a keep-alive client never sends its next request into the
      // unread body; it closes after a lingering read of the rest (gateway/lingering-close.ts).
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      if (err.status === 413 || incoming?.complete === false) c.header('Connection', 'close');
      return c.json(err.body(), err.status as 400);
    }
    console.error('storage error:', err);
    return c.json(new StorageError(500, 'InternalError', 'Internal Server Error').body(), 500);
  });

  // A refused body is read and thrown away after the answer (gateway/lingering-close.ts), never cut
  // after the listener's 500 ms: a client still sending would lose the 413 or 400 to a reset.
  const listener = getRequestListener(app.fetch, { autoCleanupIncoming: false });
  return {
    owns: (url) => url === STORAGE_PREFIX || (url ?? '').startsWith(`${STORAGE_PREFIX}/`),
    handle: (req, res) => void listener(req, res),
    app,
  };
}

export { TUS_PATH };

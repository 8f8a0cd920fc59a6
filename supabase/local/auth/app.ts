// Placeholder replaced by the GoTrue-compatible service.
import { Hono } from 'hono';
import type { AuthDeps } from './deps.ts';

export function createAuthApp(_deps: AuthDeps): Hono {
  const app = new Hono();
  app.all('*', (c) => c.json({ code: 'not_found', message: 'Not implemented yet' }, 404));
  return app;
}

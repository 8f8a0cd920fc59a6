// The GoTrue-compatible auth service, mounted at /auth/v1 by the gateway (which has already checked
// the apikey, except on the mailed GET /verify link). Every response carries
// X-Supabase-Api-Version so auth-js reads error codes from `code`; errors are GoTrue JSON and an
// unexpected failure is a bare 500 unexpected_failure, never a stack trace; PostgreSQL unreachable
// (restarting) is a 503 database_unavailable.
import { Hono } from 'hono';
import type { AuthDeps } from './deps.ts';
import { API_VERSION, API_VERSION_HEADER, AuthError, errorResponse } from './errors.ts';
import { requireAdmin } from './guard.ts';
import { createRateLimits } from './rate-limit.ts';
import { adminLinkRoutes } from './routes-admin-links.ts';
import { adminUserRoutes } from './routes-admin-users.ts';
import { mailRoutes } from './routes-mail.ts';
import { metaRoutes } from './routes-meta.ts';
import { jwksRoutes } from './routes-jwks.ts';
import { resendRoutes } from './routes-resend.ts';
import { signupRoutes } from './routes-signup.ts';
import { tokenRoutes } from './routes-token.ts';
import { userRoutes } from './routes-user.ts';
import { verifyRoutes } from './routes-verify.ts';
import type { Services } from './context.ts';
import { DB_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db-unavailable.ts';

export function createAuthApp(deps: AuthDeps): Hono {
  const app = new Hono();
  const services: Services = { deps, limits: createRateLimits(deps.config.authRateLimit) };

  app.use('*', async (c, next) => {
    c.header(API_VERSION_HEADER, API_VERSION);
    await next();
  });
  app.use('/admin/*', async (c, next) => {
    await requireAdmin(deps, c.req.header('authorization'));
    await next();
  });
  app.use('/invite', async (c, next) => {
    await requireAdmin(deps, c.req.header('authorization'));
    await next();
  });

  metaRoutes(app);
  jwksRoutes(app, services);
  signupRoutes(app, services);
  tokenRoutes(app, services);
  mailRoutes(app, services);
  resendRoutes(app, services);
  verifyRoutes(app, services);
  userRoutes(app, services);
  adminUserRoutes(app, services);
  adminLinkRoutes(app, services);

  // Mounted under the gateway, whose own fallback serves the PWA: unknown auth paths must end here.
  app.all('*', (c) => errorResponse(c, new AuthError(404, 'not_found', 'Not Found')));

  app.onError((err, c) => {
    if (err instanceof AuthError) return errorResponse(c, err);
    if (isDatabaseUnavailable(err)) return errorResponse(c, new AuthError(503, 'database_unavailable', DB_UNAVAILABLE_MESSAGE));
    console.error('auth: unexpected failure:', err);
    return errorResponse(c, new AuthError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'));
  });
  return app;
}

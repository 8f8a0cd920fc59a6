// POST /token?grant_type=password|refresh_token|pkce.
import type { Context, Hono } from 'hono';
import { readBody, str, type Json } from './body.ts';
import { clientMeta, type Services } from './context.ts';
import { passwordMatches } from './credentials.ts';
import { withTx } from './db.ts';
import { badRequest, invalidCredentials, validationFailed } from './errors.ts';
import { pkceGrant } from './pkce.ts';
import { refreshGrant } from './refresh.ts';
import { startSession } from './sessions.ts';
import { findUserByEmail, isBanned } from './users.ts';

export function tokenRoutes(app: Hono, services: Services): void {
  const { deps } = services;
  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type');
    // GoTrue answers an unknown grant with code invalid_credentials (internal/api/token.go).
    if (grant !== 'password' && grant !== 'refresh_token' && grant !== 'pkce') throw badRequest('invalid_credentials', 'unsupported_grant_type');
    // One per-client-address limit for every grant, taken after the grant type is known and before
    // anything else, as GoTrue's Token handler does (internal/api/token.go, limiterOpts.Token).
    services.limits.ip('token', clientMeta(c, deps).ip);
    const body = await readBody(c);
    switch (grant) {
      case 'password':
        return c.json(await passwordGrant(c, services, body));
      case 'refresh_token': {
        const token = str(body, 'refresh_token');
        if (!token) throw validationFailed('refresh_token required');
        return c.json(await refreshGrant(deps, token));
      }
      case 'pkce':
        return c.json(await pkceGrant(deps, body, clientMeta(c, deps)));
    }
  });
}

// Unknown address, missing password and wrong password all answer invalid_credentials after a
// bcrypt comparison, so neither the reply nor its timing tells whether the account exists.
// Limited per client IP only (the /token limit above): no per-address lockout, as GoTrue.
async function passwordGrant(c: Context, { deps }: Services, body: Json) {
  const meta = clientMeta(c, deps);
  const rawEmail = str(body, 'email');
  const password = str(body, 'password') ?? '';
  if (!rawEmail) throw validationFailed(body.phone !== undefined ? 'Phone logins are disabled' : 'missing email or phone');
  const email = rawEmail.trim().toLowerCase();
  const user = await findUserByEmail(deps.pool, email);
  const ok = await passwordMatches(password, user?.encrypted_password ?? null, deps.config.passwordHashCost);
  if (!ok || !user) throw invalidCredentials();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  return withTx(deps.pool, (db) => startSession(deps, db, user, 'password', meta));
}

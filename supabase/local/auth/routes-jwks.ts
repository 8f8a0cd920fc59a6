// GET /auth/v1/.well-known/jwks.json: the public keys user access tokens are signed with, fetched by
// supabase-js auth.getClaims() (auth-js GoTrueClient.fetchJwk) and by anyone verifying tokens.
// As GoTrue (supabase/auth internal/api/jwks.go): asymmetric public keys only, never the HMAC secret.
import type { Hono } from 'hono';
import { publicJwks } from '../keys.ts';
import type { Services } from './context.ts';

export function jwksRoutes(app: Hono, { deps }: Services): void {
  app.get('/.well-known/jwks.json', (c) => {
    // Keys change only with DATA_DIR; clients cache them (auth-js for 10 minutes).
    c.header('Cache-Control', 'public, max-age=600');
    return c.json(publicJwks(deps.keys));
  });
}

// The platform's verify_jwt check on /functions/v1 (gateway/functions-verify-jwt.ts), as hosted runs
// it: user JWTs by the legacy secret (HS256) or the project's JWKS (ES256), the project's publishable /
// secret key passes for migration compatibility on either header, everything else is 401 in the hosted
// shape. Unmodified supabase-js talks to a functions host whose config keeps verify_jwt = true for
// test-function (every real function turns it off); the keys and the JWKS are the shared stack's, read
// from its /auth/v1/.well-known/jwks.json.
import { createClient } from '@supabase/supabase-js';
import { Hono } from 'hono';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { anonClient } from '../helpers/clients.ts';
import { functionsHost } from '../../supabase/local/gateway/functions-host.ts';
import type { FunctionKeys } from '../../supabase/local/gateway/functions-verify-jwt.ts';

const stack = inject('stack');
const tempDir = mkdtempSync(join(tmpdir(), 'poradna-verify-jwt-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

const stackJwks = async () =>
  (await (await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.publishableKey } })).json()) as { keys: JWK[] };

function strictHost(keys: FunctionKeys): Hono {
  const configToml = join(tempDir, 'config.toml');
  writeFileSync(configToml, '[functions.test-function]\nverify_jwt = true\n');
  const host = functionsHost({
    functionsDir: 'supabase/functions',
    configToml,
    keys,
    env: () => ({ SUPABASE_URL: stack.url, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey }),
  });
  const app = new Hono();
  app.all('/functions/v1/:name', host);
  return app;
}

/** supabase-js whose requests go to the host above (its own headers, unmodified client). */
function jsClient(app: Hono, key: string) {
  return createClient('http://functions.test', key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: { fetch: async (input, init) => app.request(input instanceof Request ? input : String(input), init) },
  });
}

async function call(app: Hono, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const res = await app.request('/functions/v1/test-function', { method: 'POST', headers });
  return { status: res.status, body: await res.json() };
}

const userClaims = (expiresIn: number) => {
  const now = Math.floor(Date.now() / 1000);
  return { role: 'authenticated', sub: randomUUID(), aud: 'authenticated', iat: now - 10, exp: now + expiresIn };
};

describe('verify_jwt on /functions/v1', () => {
  it('admits what hosted admits: a user ES256 token, the publishable key and the secret key through supabase-js', async () => {
    const app = strictHost({ ...stack, jwks: await stackJwks() });
    const withKey = async (key: string): Promise<unknown> => {
      const { error } = await jsClient(app, key).functions.invoke('test-function', { body: { message: 'x' } });
      return error;
    };
    expect(await withKey(stack.publishableKey)).toBeNull();
    expect(await withKey(stack.secretKey)).toBeNull();
    const { data } = await anonClient(stack).auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    const user = jsClient(app, stack.publishableKey);
    user.functions.setAuth(data.session!.access_token);
    expect((await user.functions.invoke('test-function', { body: { message: 'x' } })).error).toBeNull();
    // The new key only on apikey (a server, pg_net), as the docs ask keys to be sent.
    expect((await call(app, { apikey: stack.secretKey })).status).toBe(200);
  });

  it('refuses forged, confused and foreign credentials with the hosted 401 bodies', async () => {
    const jwks = await stackJwks();
    const app = strictHost({ ...stack, jwks });
    const projectKid = jwks.keys[0]!.kid!;
    const other = await generateKeyPair('ES256');
    const otherRsa = await generateKeyPair('RS256');
    const forged = {
      'ES256 signed by another key under the project kid': await new SignJWT(userClaims(600))
        .setProtectedHeader({ alg: 'ES256', kid: projectKid })
        .sign(other.privateKey),
      'RS256 signed by another key': await new SignJWT(userClaims(600))
        .setProtectedHeader({ alg: 'RS256', kid: randomUUID() })
        .sign(otherRsa.privateKey),
      // Algorithm confusion: the project's public key used as an HMAC secret.
      'HS256 keyed with the public JWK': await new SignJWT(userClaims(600))
        .setProtectedHeader({ alg: 'HS256', kid: projectKid })
        .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0]))),
      'alg none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(userClaims(600))).toString('base64url')}.`,
      'publishable key of another project': `sb_publishable_${randomBytes(16).toString('base64url')}_abcdefgh`,
      'secret key of another project': `sb_secret_${randomBytes(16).toString('base64url')}_abcdefgh`,
      'not a token': 'garbage',
    };
    const invalid = { code: 401, message: 'Invalid JWT' };
    for (const [name, token] of Object.entries(forged)) {
      expect(await call(app, { authorization: `Bearer ${token}` }), name).toEqual({ status: 401, body: invalid });
      expect(await call(app, { authorization: `Bearer ${token}`, apikey: token }), `${name} on both headers`).toEqual({ status: 401, body: invalid });
    }
    const missing = { status: 401, body: { code: 401, message: 'Missing authorization header' } };
    expect(await call(app, {})).toEqual(missing);
    expect(await call(app, { apikey: forged['secret key of another project'] })).toEqual(missing);
    // A real user token with one claim changed: the signature no longer holds.
    const { data } = await anonClient(stack).auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    const [h, p, s] = data.session!.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${s}`;
    expect(await call(app, { authorization: `Bearer ${tampered}` })).toEqual({ status: 401, body: invalid });
  });

  it('refuses an expired ES256 token that the same key admits while it is fresh', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = randomUUID();
    const app = strictHost({ ...stack, jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] } });
    const sign = (expiresIn: number) => new SignJWT(userClaims(expiresIn)).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
    expect((await call(app, { authorization: `Bearer ${await sign(600)}` })).status).toBe(200);
    expect(await call(app, { authorization: `Bearer ${await sign(-5)}` })).toEqual({ status: 401, body: { code: 401, message: 'Invalid JWT' } });
  });

  it('with legacy API keys turned off refuses the anon and service_role keys on either header; the new keys pass', async () => {
    const app = strictHost({ ...stack, jwks: await stackJwks(), legacyDisabled: true });
    const attempts: Record<string, string>[] = [
      { authorization: `Bearer ${stack.serviceRoleKey}` },
      { authorization: `Bearer ${stack.anonKey}`, apikey: stack.anonKey },
      { authorization: `Bearer ${stack.serviceRoleKey}`, apikey: stack.publishableKey },
      { apikey: stack.serviceRoleKey },
    ];
    for (const headers of attempts) {
      const { status, body } = await call(app, headers);
      expect(status, Object.keys(headers).join('+')).toBe(401);
      expect(body).toMatchObject({ message: 'Legacy API keys are disabled' });
    }
    expect((await call(app, { authorization: `Bearer ${stack.publishableKey}`, apikey: stack.publishableKey })).status).toBe(200);
  });
});

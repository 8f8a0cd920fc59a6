// The functions host: Supabase's conventions as supabase-js sees them (verify_jwt, env, 404s).
// verify_jwt as the platform runs it: legacy HS256 JWTs and ES256 user tokens by the JWKS; the
// attacks on it are in functions-verify-jwt.test.ts.
import { FunctionsHttpError } from '@supabase/supabase-js';
import { Hono } from 'hono';
import { SignJWT, type JWK } from 'jose';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { anonClient } from '../helpers/clients.ts';
import { functionsHost, readVerifyJwtFlags } from '../../supabase/local/gateway/functions-host.ts';

const stack = inject('stack');

/** A functions host whose config keeps the platform's default verify_jwt = true for test-function. */
const tempDir = mkdtempSync(join(tmpdir(), 'poradna-host-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

async function strictHost(): Promise<Hono> {
  const configToml = join(tempDir, 'config.toml');
  writeFileSync(configToml, '[functions.test-function]\nverify_jwt = true\n');
  const jwks = (await (await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.publishableKey } })).json()) as {
    keys: JWK[];
  };
  const host = functionsHost({
    functionsDir: 'supabase/functions',
    configToml,
    keys: { ...stack, jwks },
    env: () => ({ SUPABASE_URL: stack.url, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey }),
  });
  const app = new Hono();
  app.all('/functions/v1/:name', host);
  return app;
}

async function errorBody(err: unknown): Promise<{ status: number; body: unknown }> {
  expect(err).toBeInstanceOf(FunctionsHttpError);
  const res = (err as FunctionsHttpError).context as Response;
  return { status: res.status, body: await res.json() };
}

describe('functions host', () => {
  it('runs a public function through supabase.functions.invoke', async () => {
    const { data, error } = await anonClient(stack).functions.invoke('test-function', { body: { message: 'ahoj' } });
    expect(error).toBeNull();
    expect(data).toMatchObject({ ok: true, echo: 'ahoj' });
  });

  it('refuses a verify_jwt function without a JWT', async () => {
    const res = await (await strictHost()).request('/functions/v1/test-function', { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: 'Missing authorization header' });
  });

  it('refuses a verify_jwt function with a forged JWT', async () => {
    const forged = await new SignJWT({ role: 'authenticated', sub: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
    const res = await (await strictHost()).request('/functions/v1/test-function', {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: 'Invalid JWT' });
  });

  it('admits an ES256 user token (by the JWKS) and the legacy anon key at verify_jwt, as the platform does', async () => {
    const { data } = await anonClient(stack).auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    const userToken = data.session!.access_token;
    const host = await strictHost();
    const call = (token: string) =>
      host.request('/functions/v1/test-function', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect((await call(userToken)).status).toBe(200);
    expect((await call(stack.anonKey)).status).toBe(200);
  });

  it('lets user tokens reach every function: none relies on the platform verify_jwt', async () => {
    const flags = await readVerifyJwtFlags('supabase/config.toml');
    const fns = readdirSync('supabase/functions', { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
      .map((d) => d.name);
    for (const name of fns) expect(flags.get(name), name).toBe(false);
  });

  it('lets the anon key through verify_jwt but the function itself requires a user', async () => {
    const { error } = await anonClient(stack).functions.invoke('ensure-first-conversation');
    const { status, body } = await errorBody(error);
    expect(status).toBe(401);
    expect(body).toEqual({ error: 'No auth token available' });
  });

  it('answers HEAD for a deployed function and 404 for a missing one', async () => {
    const ok = await fetch(`${stack.url}/functions/v1/test-function`, { method: 'HEAD' });
    expect(ok.status).not.toBe(404);
    const missing = await fetch(`${stack.url}/functions/v1/nothing-here`, { method: 'HEAD' });
    expect(missing.status).toBe(404);
  });

  it('reads verify_jwt flags from supabase/config.toml', async () => {
    const file = join(tempDir, 'flags.toml');
    writeFileSync(file, '[functions.a]\nverify_jwt = false # comment\nimport_map = "./x.json"\n[functions.b]\nverify_jwt = true\n[api]\nverify_jwt = false\n');
    const flags = await readVerifyJwtFlags(file);
    expect([...flags]).toEqual([['a', false], ['b', true]]);
  });
});

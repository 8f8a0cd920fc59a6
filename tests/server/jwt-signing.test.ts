// Asymmetric JWTs as on a Supabase project with JWT signing keys: the auth service signs user access
// tokens with ES256 and a kid found in /auth/v1/.well-known/jwks.json; REST, realtime, auth and the
// functions accept them and the legacy HS256 keys, and refuse forged tokens of every kind.
import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient } from '../helpers/clients.ts';
import { RawSocket, realtimeUrl } from './realtime-helpers.ts';

const stack = inject('stack');
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function signIn(email = 'demo@poradna.test') {
  const client = anonClient(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password: 'poradna123' });
  if (error || !data.session) throw error ?? new Error('no session');
  return { client, token: data.session.access_token };
}

async function jwks(): Promise<{ keys: JWK[] }> {
  const res = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.anonKey } });
  expect(res.status).toBe(200);
  return (await res.json()) as { keys: JWK[] };
}

/** What each API answers for a token: REST and auth statuses, the functions status, the realtime join status. */
async function outcomes(token: string) {
  const headers = { apikey: stack.anonKey, authorization: `Bearer ${token}` };
  const rest = await fetch(`${stack.url}/rest/v1/conversations?select=id&limit=1`, { headers });
  const auth = await fetch(`${stack.url}/auth/v1/user`, { headers });
  const fn = await fetch(`${stack.url}/functions/v1/ensure-first-conversation`, { method: 'POST', headers, body: '{}' });
  const ws = await RawSocket.open(realtimeUrl(stack.url, stack.anonKey));
  let realtime: string;
  try {
    const ref = ws.push('1', `realtime:jwt-${randomUUID()}`, 'phx_join', { config: {}, access_token: token });
    realtime = (await ws.reply(ref)).status;
  } finally {
    ws.close();
  }
  for (const r of [rest, auth, fn]) await r.body?.cancel();
  return { rest: rest.status, auth: auth.status, functions: fn.status, realtime };
}

describe('user access tokens are ES256 with a published kid', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await signIn());
  });

  it('signs with ES256 and a kid that the JWKS serves; the JWKS holds no secret', async () => {
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));
    const set = await jwks();
    const key = set.keys.find((k) => k.kid === header.kid);
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    for (const k of set.keys) {
      expect(k.kty).not.toBe('oct');
      expect(k).not.toHaveProperty('d');
      expect(k).not.toHaveProperty('k');
    }
  });

  it('is accepted by REST, auth, functions and realtime', async () => {
    expect(await outcomes(token)).toEqual({ rest: 200, auth: 200, functions: 200, realtime: 'ok' });
  });

  it('is verified by supabase-js auth.getClaims() against the JWKS', async () => {
    const { data, error } = await anonClient(stack).auth.getClaims(token);
    expect(error).toBeNull();
    expect(data?.header.alg).toBe('ES256');
    expect(data?.claims.role).toBe('authenticated');
  });
});

describe('the legacy HS256 keys keep working', () => {
  it('accepts an HS256 user token signed with the legacy secret everywhere', async () => {
    const { token } = await signIn();
    const claims = decodeJwt(token);
    const legacy = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(stack.jwtSecret));
    expect(await outcomes(legacy)).toEqual({ rest: 200, auth: 200, functions: 200, realtime: 'ok' });
  });

  it('accepts the anon and service_role keys on REST and realtime', async () => {
    const rest = async (key: string) => {
      const res = await fetch(`${stack.url}/rest/v1/conversations?select=id&limit=1`, {
        headers: { apikey: key, authorization: `Bearer ${key}` },
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect((await rest(stack.serviceRoleKey)).status).toBe(200);
    // anon has no grant on the table: refused by the database as role anon (42501), not as a bad JWT.
    expect(await rest(stack.anonKey)).toMatchObject({ status: 401, body: { code: '42501' } });
    for (const key of [stack.anonKey, stack.serviceRoleKey]) {
      const ws = await RawSocket.open(realtimeUrl(stack.url, key));
      try {
        expect((await ws.reply(ws.push('1', `realtime:k-${randomUUID()}`, 'phx_join', { config: {} }))).status).toBe('ok');
      } finally {
        ws.close();
      }
    }
  });
});

describe('forged tokens are refused by REST, auth, functions and realtime', () => {
  it('refuses ES256 signed with another key, an unknown kid, HS256 with a wrong secret or the public key, and a changed payload', async () => {
    const { token } = await signIn();
    const claims = decodeJwt(token);
    const { kid } = decodeProtectedHeader(token);
    const other = await generateKeyPair('ES256');
    const now = Math.floor(Date.now() / 1000);
    const publicKeyBytes = new TextEncoder().encode(JSON.stringify((await jwks()).keys[0]));
    const [h, , s] = token.split('.');
    const forged: Record<string, string> = {
      'ES256, another key, the real kid': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: kid! })
        .sign(other.privateKey),
      'ES256, another key, an unknown kid': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: randomUUID() })
        .sign(other.privateKey),
      'HS256, a wrong secret': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode('x'.repeat(48))),
      'HS256 keyed with the published public key, real kid': await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: kid! })
        .sign(publicKeyBytes),
      'real signature, payload raised to service_role': `${h}.${b64({ ...claims, role: 'service_role', exp: now + 3600 })}.${s}`,
    };
    for (const [name, t] of Object.entries(forged)) {
      const got = await outcomes(t);
      expect(got.rest, `rest: ${name}`).toBe(401);
      expect([401, 403], `auth: ${name}`).toContain(got.auth);
      expect(got.functions, `functions: ${name}`).toBe(401);
      expect(got.realtime, `realtime: ${name}`).toBe('error');
    }
  });

  it('refuses a validly signed ES256 token of a signed-out session in the functions', async () => {
    const { client, token } = await signIn('druhy@poradna.test');
    expect((await outcomes(token)).functions).toBe(200);
    await client.auth.signOut({ scope: 'global' });
    const res = await fetch(`${stack.url}/functions/v1/ensure-first-conversation`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Invalid or expired session' });
  });
});

// ai-reply-worker proves the service role without comparing against the legacy service key string:
// the legacy HS256 key (checked by the auth server), an ES256 service_role JWT (checked against the
// JWKS) and a secret API key from SUPABASE_SECRET_KEYS (the stack's own, as a hosted project hands it)
// are let in, the secret key also on the apikey header alone; forged look-alikes are not. Its own stack: the test needs the stack's signing key.
import { randomBytes, randomUUID } from 'node:crypto';
import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.destroy();
});

async function post(token: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }): Promise<number> {
  const res = await fetch(`${stack.url}/functions/v1/ai-reply-worker`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{}',
  });
  await res.body?.cancel();
  return res.status;
}

const serviceClaims = () => {
  const now = Math.floor(Date.now() / 1000);
  return { role: 'service_role', iss: 'poradna-local', iat: now, exp: now + 600 };
};

describe('ai-reply-worker caller check', () => {
  it('admits the legacy service_role key, an ES256 service_role JWT and the secret API key', async () => {
    expect(await post(stack.keys.serviceRoleKey)).toBe(200);
    const { kid, privateJwk } = stack.keys.signingKey;
    const es256 = await new SignJWT(serviceClaims())
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid })
      .sign(await importJWK(privateJwk, 'ES256'));
    expect(await post(es256)).toBe(200);
    expect(await post(stack.keys.secretKey)).toBe(200);
  });

  it('admits the secret key on the apikey header alone, where Supabase says API keys go', async () => {
    expect(await post('', { apikey: stack.keys.secretKey })).toBe(200);
    // supabase-js with the secret key sends it on both headers.
    expect(await post(stack.keys.secretKey, { apikey: stack.keys.secretKey, authorization: `Bearer ${stack.keys.secretKey}` })).toBe(200);
  });

  it('refuses a foreign secret key or the publishable key on the apikey header', async () => {
    const foreign = `sb_secret_${randomBytes(16).toString('base64url')}_abcdefgh`;
    expect(await post('', { apikey: foreign })).toBe(403);
    expect(await post('', { apikey: stack.keys.publishableKey })).toBe(403);
    expect(await post('', { apikey: foreign, authorization: `Bearer ${stack.keys.publishableKey}` })).toBe(403);
  });

  it('refuses forged service_role tokens, a wrong secret key, the anon key and a member', async () => {
    const other = await generateKeyPair('ES256');
    const forged = {
      'HS256, wrong secret': await new SignJWT(serviceClaims())
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode('y'.repeat(48))),
      'ES256, another key, the real kid': await new SignJWT(serviceClaims())
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: stack.keys.signingKey.kid })
        .sign(other.privateKey),
      'ES256, another key, unknown kid': await new SignJWT(serviceClaims())
        .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: randomUUID() })
        .sign(other.privateKey),
      'secret key of another project': `sb_secret_${randomBytes(24).toString('base64url')}`,
      'anon key': stack.keys.anonKey,
      'no token': '',
    };
    for (const [name, token] of Object.entries(forged)) expect(await post(token), name).toBe(403);
    const { data } = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@poradna.test', password: 'poradna123' }),
    }).then(async (r) => ({ data: (await r.json()) as { access_token: string } }));
    expect(await post(data.access_token)).toBe(403);
  });
});

// The gateway's own behaviour: API keys, unknown routes, oversized and malformed bodies, functions host.
import { describe, expect, inject, it } from 'vitest';

const stack = inject('stack');

describe('gateway', () => {
  it('refuses /rest/v1 without an API key, in Kong shape', async () => {
    const res = await fetch(`${stack.url}/rest/v1/`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'No API key found in request' });
  });

  it('refuses /rest/v1 with a wrong API key', async () => {
    const res = await fetch(`${stack.url}/rest/v1/`, { headers: { apikey: 'nope' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid API key' });
  });

  it('answers a forged JWT on /rest/v1 with a PostgREST 401', async () => {
    const forged = stack.anonKey.replace(/\.[^.]+$/, '.AAAA');
    const res = await fetch(`${stack.url}/rest/v1/plans`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { code: string };
    expect(body.code).toMatch(/^PGRST3/);
  });

  it('answers a body over 1 MB with 413 and keeps serving', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    const res = await fetch(`${stack.url}/functions/v1/test-function`, { method: 'POST', body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Request body is larger than 1 MB' });
    const again = await fetch(`${stack.url}/functions/v1/test-function`, { method: 'POST', body: '{"message":"ok"}' });
    expect(again.status).toBe(200);
  });

  it('returns 404 for an unknown function and a path-traversal attempt', async () => {
    for (const name of ['does-not-exist', '_shared', '..%2Fsecrets']) {
      const res = await fetch(`${stack.url}/functions/v1/${name}`, { method: 'POST' });
      expect(res.status, name).toBe(404);
    }
  });

  it('gives malformed JSON to a function a 400 with a message', async () => {
    const res = await fetch(`${stack.url}/functions/v1/test-function`, { method: 'POST', body: '{nope' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Request body must be valid JSON' });
  });

  it('serves /env.js with the public URL and the publishable key, never a secret or legacy key', async () => {
    const res = await fetch(`${stack.url}/env.js`);
    const text = await res.text();
    expect(text).toContain(`"publishableKey":"${stack.publishableKey}"`);
    for (const hidden of [stack.secretKey, stack.serviceRoleKey, stack.anonKey]) expect(text).not.toContain(hidden);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers CORS preflight with the headers supabase-js sends', async () => {
    const res = await fetch(`${stack.url}/rest/v1/plans`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey,authorization,content-type,prefer,x-client-info',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-headers')).toContain('apikey');
  });
});

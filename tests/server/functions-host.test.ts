// The functions host: Supabase's conventions as supabase-js sees them (verify_jwt, env, 404s).
import { FunctionsHttpError } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { anonClient } from '../helpers/clients.ts';
import { readVerifyJwtFlags } from '../../supabase/local/gateway/functions-host.ts';

const stack = inject('stack');

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
    const res = await fetch(`${stack.url}/functions/v1/ensure-first-conversation`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ msg: 'Missing authorization header' });
  });

  it('refuses a verify_jwt function with a forged JWT', async () => {
    const forged = await new SignJWT({ role: 'authenticated', sub: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
    const res = await fetch(`${stack.url}/functions/v1/ensure-first-conversation`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ msg: 'Invalid JWT' });
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
    const flags = await readVerifyJwtFlags('supabase/config.toml');
    expect(flags.get('test-function')).toBe(false);
    expect(flags.get('auth-link')).toBe(false);
    expect(flags.get('chatwoot-webhook')).toBe(false);
    expect(flags.has('delete-user')).toBe(false);
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { Session } from '@supabase/supabase-js';
import { establishSessionFromLink, type LinkAuthClient } from '../../../src/auth/establish-session.ts';
import { readLinkParams, withoutLinkParams } from '../../../src/auth/link-params.ts';
import { isSessionValid } from '../../../src/auth/session-validity.ts';

const base = 'https://app.example/auth/callback';

describe('readLinkParams', () => {
  it('reads magic-link tokens from the hash', () => {
    expect(readLinkParams(`${base}#access_token=a&expires_in=3600&refresh_token=r&token_type=bearer&type=magiclink`)).toEqual({
      kind: 'tokens',
      accessToken: 'a',
      refreshToken: 'r',
      type: 'magiclink',
    });
  });
  it('reads a PKCE code from the query', () => {
    expect(readLinkParams(`${base}?code=abc-123`)).toEqual({ kind: 'code', code: 'abc-123' });
  });
  it('reads errors from the hash or the query', () => {
    expect(readLinkParams(`${base}#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid`)).toEqual({
      kind: 'error',
      code: 'otp_expired',
      description: 'Email link is invalid',
    });
    expect(readLinkParams(`${base}?error=server_error`).kind).toBe('error');
  });
  it('needs both tokens', () => {
    expect(readLinkParams(`${base}#access_token=a&type=magiclink`).kind).toBe('none');
    expect(readLinkParams(base).kind).toBe('none');
  });
  it('strips auth parameters but keeps others', () => {
    expect(withoutLinkParams(`${base}?code=x&keep=1#access_token=a`)).toBe('/auth/callback?keep=1');
  });
});

describe('isSessionValid (user-area.md section 3)', () => {
  const now = 1_700_000_000_000;
  it('needs an access token and a future expiry', () => {
    expect(isSessionValid({ access_token: 't', expires_at: now / 1000 + 60 }, now)).toBe(true);
    expect(isSessionValid({ access_token: 't', expires_at: now / 1000 }, now)).toBe(false);
    expect(isSessionValid({ access_token: '', expires_at: now / 1000 + 60 }, now)).toBe(false);
    expect(isSessionValid({ access_token: 't' }, now)).toBe(false);
    expect(isSessionValid(null, now)).toBe(false);
  });
});

describe('establishSessionFromLink', () => {
  const session = { access_token: 'a', user: { id: 'u1' } } as unknown as Session;
  const client = () => {
    const setSession = vi.fn(async () => ({ data: { session, user: session.user }, error: null }));
    const exchangeCodeForSession = vi.fn(async () => ({ data: { session, user: session.user }, error: null }));
    return { setSession, exchangeCodeForSession, asClient: { setSession, exchangeCodeForSession } as unknown as LinkAuthClient };
  };

  it('sets the session from hash tokens, once per address', async () => {
    const c = client();
    const href = `${base}#access_token=a1&refresh_token=r1&type=recovery`;
    const [first, second] = await Promise.all([establishSessionFromLink(c.asClient, href), establishSessionFromLink(c.asClient, href)]);
    expect(first).toEqual({ ok: true, session, type: 'recovery' });
    expect(second).toBe(first);
    expect(c.setSession).toHaveBeenCalledTimes(1);
    expect(c.setSession).toHaveBeenCalledWith({ access_token: 'a1', refresh_token: 'r1' });
  });
  it('exchanges a code', async () => {
    const c = client();
    await expect(establishSessionFromLink(c.asClient, `${base}?code=c-1`)).resolves.toMatchObject({ ok: true });
    expect(c.exchangeCodeForSession).toHaveBeenCalledWith('c-1');
  });
  it('reports invalid links and missing parameters', async () => {
    const c = client();
    c.exchangeCodeForSession.mockResolvedValueOnce({ data: { session: null, user: null }, error: new Error('bad code') } as never);
    await expect(establishSessionFromLink(c.asClient, `${base}?code=used`)).resolves.toEqual({ ok: false, reason: 'invalid' });
    await expect(establishSessionFromLink(c.asClient, `${base}#error=access_denied&error_code=otp_expired`)).resolves.toEqual({ ok: false, reason: 'invalid' });
    await expect(establishSessionFromLink(c.asClient, `${base}?nothing=1`)).resolves.toEqual({ ok: false, reason: 'missing' });
  });
});

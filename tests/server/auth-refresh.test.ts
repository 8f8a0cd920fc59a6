// Refresh-token rotation as GoTrue's (supabase/auth internal/tokens/service.go RefreshTokenGrant):
// the parent of the active token is answered with it, the reuse interval, family revocation for a
// real reuse; and rate limits. Reuse detection and rate limits run on a stack of their own with a
// reuse interval of 0 s (every second presentation is "past the interval", so no test sleeps) and
// low limits; clients there pick their IP through X-Forwarded-For so tests never share a window.
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, uniqueEmail } from '../helpers/clients.ts';
import { startAttackStack } from '../helpers/configured.ts';
import type { TestStack } from '../helpers/stack.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { authFetch, clientFromIp, freshIp } from './auth-helpers.ts';

const stack = inject('stack');
const PASSWORD = 'heslo-123';

async function signedIn(s: { url: string; anonKey: string }, ip = freshIp()) {
  const client = clientFromIp(s, ip);
  const { data, error } = await signUpConfirmed(s, client, { email: uniqueEmail('refresh'), password: PASSWORD });
  expect(error).toBeNull();
  return { client, session: data.session! };
}

/** A raw refresh from `ip` (a fresh address unless given: the /token per-IP limit counts refreshes). */
async function refreshRaw(s: { url: string; anonKey: string }, token: string, ip = freshIp()) {
  const res = await authFetch(s, '/token?grant_type=refresh_token', {
    method: 'POST',
    body: JSON.stringify({ refresh_token: token }),
    headers: { 'x-forwarded-for': ip },
  });
  return { status: res.status, body: (await res.json()) as { code?: string; refresh_token?: string; access_token?: string } };
}

/** A signed-in session rotated twice: its first token, its child (r1) and the active grandchild (r2). */
async function rotatedTwice(s: { url: string; anonKey: string }) {
  const { session } = await signedIn(s);
  const r1 = await refreshRaw(s, session.refresh_token);
  const r2 = await refreshRaw(s, r1.body.refresh_token!);
  expect(r2.status).toBe(200);
  return { session, r1, r2 };
}

describe('refresh rotation (shared stack)', () => {
  it('rotates the refresh token on every refresh', async () => {
    const { client, session } = await signedIn(stack);
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.session?.refresh_token).not.toBe(session.refresh_token);
    expect(data.user?.id).toBe(session.user.id);
  });

  it('gives a tab that races the refresh the current child, not a new token or a logout', async () => {
    const { session } = await signedIn(stack);
    const [a, b] = await Promise.all([refreshRaw(stack, session.refresh_token), refreshRaw(stack, session.refresh_token)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.refresh_token).toBe(b.body.refresh_token);
    const next = await refreshRaw(stack, a.body.refresh_token!);
    expect(next.status).toBe(200);
  });

  it('swaps a rotated token that is not the active one\'s parent for a new child within the reuse interval (10 s)', async () => {
    const { session, r2 } = await rotatedTwice(stack);
    const again = await refreshRaw(stack, session.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).not.toBe(r2.body.refresh_token);
    expect((await refreshRaw(stack, again.body.refresh_token!)).status).toBe(200);
  });

  it('with the default 10 s interval: a reuse past it revokes the family, and the revoked tokens may be swapped for 10 s more (GoTrue)', async () => {
    const { session, r2 } = await rotatedTwice(stack);
    // The first token was rotated 11 s ago, as time would have it (its updated_at moved back).
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const moved = await db.query(`update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1`, [
        session.refresh_token,
      ]);
      expect(moved.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    expect(await refreshRaw(stack, session.refresh_token)).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } });
    // RevokeTokenFamily stamps updated_at = now() on the tokens it revokes, so the holder of the
    // active one is still swapped within the interval (models/refresh_token.go, tokens/service.go).
    const holder = await refreshRaw(stack, r2.body.refresh_token!);
    expect(holder.status).toBe(200);
    expect(holder.body.refresh_token).not.toBe(r2.body.refresh_token);
  });

  it('answers an unknown refresh token with refresh_token_not_found', async () => {
    const { error } = await anonClient(stack).auth.refreshSession({ refresh_token: 'no-such-token' });
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });
});

describe('own stack: reuse detection and rate limits', () => {
  let own: TestStack;
  let ref: { url: string; anonKey: string };
  beforeAll(async () => {
    own = await startAttackStack({ authRateLimit: { perIp: 3, perEmail: 3, windowMs: 60_000 }, refreshReuseIntervalSec: 0 });
    ref = { url: own.url, anonKey: own.keys.anonKey };
  });
  afterAll(async () => {
    await own.destroy();
  });

  it('keeps a client signed in whose refresh reply was lost, when it retries with the old token after the interval', async () => {
    const { session } = await signedIn(ref);
    // The network delivers the refresh to the server and loses the reply, once; auth-js (unmodified)
    // then retries the refresh with the token it still holds, which the server has rotated away.
    let lost: { refresh_token: string } | undefined;
    const lossyFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!lost && String(input instanceof Request ? input.url : input).includes('grant_type=refresh_token') && res.ok) {
        lost = (await res.json()) as { refresh_token: string };
        throw new TypeError('fetch failed');
      }
      return res;
    };
    const client = createClient(ref.url, ref.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: lossyFetch, headers: { 'x-forwarded-for': freshIp() } },
      realtime: { transport: WebSocket as never },
    });
    expect((await client.auth.setSession(session)).error).toBeNull();
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(lost).toBeDefined();
    // The answer is the token the lost reply carried (the session's active one), not a new branch.
    expect(refreshed.data.session?.refresh_token).toBe(lost!.refresh_token);
    const user = await client.auth.getUser();
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe(session.user.id);
    expect((await client.from('conversations').select('id')).error).toBeNull();
    const next = await client.auth.refreshSession();
    expect(next.error).toBeNull();
    expect(next.data.session?.refresh_token).not.toBe(lost!.refresh_token);
  });

  it('answers the rotated-away parent with the active token as often as it comes back (no new branch)', async () => {
    const { session } = await signedIn(ref);
    const r1 = await refreshRaw(ref, session.refresh_token);
    for (let i = 0; i < 3; i++) {
      const again = await refreshRaw(ref, session.refresh_token);
      expect(again.status).toBe(200);
      expect(again.body.refresh_token).toBe(r1.body.refresh_token);
    }
    expect((await refreshRaw(ref, r1.body.refresh_token!)).status).toBe(200);
  });

  it('revokes every refresh token of the session when a rotated token that is not the active one\'s parent comes back after the interval', async () => {
    const { session, r1: r2, r2: r3 } = await rotatedTwice(ref);
    const reuse = await clientFromIp(ref, freshIp()).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(reuse.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    // The legitimate holder's active token is revoked too (the family), and so is every other one.
    expect(await refreshRaw(ref, r3.body.refresh_token!)).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } });
    expect(await refreshRaw(ref, r2.body.refresh_token!)).toMatchObject({ status: 400, body: { code: 'refresh_token_already_used' } });
    // As in GoTrue the session row stays: its access tokens are accepted until they expire (SECURITY.md).
    expect((await authFetch(ref, '/user', { token: r3.body.access_token! })).status).toBe(200);
  });

  it('limits sign-ups per IP with 429 over_request_rate_limit', async () => {
    const client = clientFromIp(ref, freshIp());
    for (let i = 0; i < 3; i++) {
      expect((await client.auth.signUp({ email: uniqueEmail('rl'), password: PASSWORD })).error).toBeNull();
    }
    const over = await client.auth.signUp({ email: uniqueEmail('rl'), password: PASSWORD });
    expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const elsewhere = await clientFromIp(ref, freshIp()).auth.signUp({ email: uniqueEmail('rl'), password: PASSWORD });
    expect(elsewhere.error).toBeNull();
  });

  it('limits magic-link mails per address across IPs with over_email_send_rate_limit', async () => {
    const email = uniqueEmail('rl-otp');
    for (let i = 0; i < 3; i++) {
      expect((await clientFromIp(ref, freshIp()).auth.signInWithOtp({ email })).error).toBeNull();
    }
    const over = await clientFromIp(ref, freshIp()).auth.signInWithOtp({ email });
    expect(over.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });

  it('N7: wrong passwords sent for someone else\'s address never lock its owner out; each guessing address meets its own limit', async () => {
    const email = uniqueEmail('rl-pw');
    const victim = clientFromIp(ref, freshIp());
    expect((await signUpConfirmed(ref, victim, { email, password: PASSWORD })).error).toBeNull();
    // The attacker guesses from four addresses until each is refused (3 per window per address).
    for (let a = 0; a < 4; a++) {
      const attacker = clientFromIp(ref, freshIp());
      for (let i = 0; i < 3; i++) {
        expect((await attacker.auth.signInWithPassword({ email, password: `zle-heslo-${a}-${i}` })).error).toMatchObject({ code: 'invalid_credentials' });
      }
      const over = await attacker.auth.signInWithPassword({ email, password: 'zle-heslo' });
      expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    }
    // The owner, from their own address, signs in with the password and by magic link.
    const owner = clientFromIp(ref, freshIp());
    const signedIn = await owner.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session?.user.email).toBe(email);
    expect((await clientFromIp(ref, freshIp()).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
  });

  it('counts refreshes against the per-IP /token limit, as GoTrue (one limiter for every grant)', async () => {
    const { session } = await signedIn(ref);
    const ip = freshIp();
    let token = session.refresh_token;
    for (let i = 0; i < 3; i++) {
      const r = await refreshRaw(ref, token, ip);
      expect(r.status).toBe(200);
      token = r.body.refresh_token!;
    }
    expect(await refreshRaw(ref, token, ip)).toMatchObject({ status: 429, body: { code: 'over_request_rate_limit' } });
    // The refused request rotated nothing: the same token refreshes from another address.
    expect((await refreshRaw(ref, token)).status).toBe(200);
  });

  it('limits password recovery per IP', async () => {
    const client = clientFromIp(ref, freshIp());
    for (let i = 0; i < 3; i++) expect((await client.auth.resetPasswordForEmail(uniqueEmail('rl-rec'))).error).toBeNull();
    const over = await client.auth.resetPasswordForEmail(uniqueEmail('rl-rec'));
    expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });
});

describe('stack not behind a trusted proxy (the default: TRUST_X_FORWARDED_FOR unset)', () => {
  let plain: TestStack;
  let ref: { url: string; anonKey: string };
  beforeAll(async () => {
    plain = await startAttackStack({ authRateLimit: { perIp: 3, perEmail: 100, windowMs: 60_000 }, trustForwardedFor: false });
    ref = { url: plain.url, anonKey: plain.keys.anonKey };
  });
  afterAll(async () => {
    await plain.destroy();
  });

  it('counts the socket address: a client naming a new X-Forwarded-For on every sign-up still meets the per-IP limit', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await clientFromIp(ref, freshIp()).auth.signUp({ email: uniqueEmail('xff'), password: PASSWORD })).error).toBeNull();
    }
    const over = await clientFromIp(ref, freshIp()).auth.signUp({ email: uniqueEmail('xff'), password: PASSWORD });
    expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });
});

// Issue 16 item 8: a magic link requested with a PKCE challenge is worth a session only to the
// browser holding the code verifier. Someone who reads the link (mail scanner, shared inbox,
// forwarded mail) and posts its token to POST /verify {token_hash} must be refused, and the link
// must still work for its owner (GoTrue: PKCE tokens only give an auth code, exchanged at
// /token?grant_type=pkce).
import { describe, expect, inject, it } from 'vitest';
import { serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { authFetch, latestMail, openLink, pkceClient, siteUrl } from './auth-helpers.ts';

const stack = inject('stack');

describe('PKCE magic link without the code verifier', () => {
  it('POST /verify with the link token is refused; the owner still exchanges the code', async () => {
    const email = uniqueEmail('pkce-steal');
    expect((await serviceClient(stack).auth.admin.createUser({ email, email_confirm: true })).error).toBeNull();
    const owner = pkceClient(stack);
    expect((await owner.auth.signInWithOtp({ email, options: { emailRedirectTo: `${siteUrl(stack)}/auth/callback` } })).error).toBeNull();
    const link = (await latestMail(stack, email)).links[0]!;
    const token = new URL(link).searchParams.get('token')!;

    for (const type of ['magiclink', 'email']) {
      const res = await authFetch(stack, '/verify', { method: 'POST', body: JSON.stringify({ type, token_hash: token }) });
      expect(res.status).toBe(403);
      const body = (await res.json()) as { code: string; access_token?: string };
      expect(body.code).toBe('otp_expired');
      expect(body.access_token).toBeUndefined();
    }

    const code = (await openLink(stack, link)).searchParams.get('code');
    expect(code).toBeTruthy();
    const { data, error } = await owner.auth.exchangeCodeForSession(code!);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it('an implicit-flow link token still verifies with POST /verify (only PKCE tokens are held back)', async () => {
    const email = uniqueEmail('implicit');
    const admin = serviceClient(stack);
    expect((await admin.auth.admin.createUser({ email, email_confirm: true })).error).toBeNull();
    const link = await admin.auth.admin.generateLink({ type: 'magiclink', email });
    const res = await authFetch(stack, '/verify', {
      method: 'POST',
      body: JSON.stringify({ type: 'magiclink', token_hash: link.data.properties!.hashed_token }),
    });
    expect(res.status).toBe(200);
  });
});

// Mailed links through the unmodified supabase-js: magic link (implicit and PKCE), verifyOtp with a
// token hash and with the 6-digit code, password recovery, single use, expiry, open redirects.
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { authFetch, fragmentParams, latestMail, openLink, pkceClient, siteUrl } from './auth-helpers.ts';

const stack = inject('stack');
const callback = `${siteUrl(stack)}/auth/callback`;
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => pool.end());

describe('magic link', () => {
  it('mails an absolute link whose 303 hands a session to redirect_to in the fragment', async () => {
    const email = uniqueEmail('magic');
    const client = anonClient(stack);
    const sent = await client.auth.signInWithOtp({ email, options: { emailRedirectTo: callback } });
    expect(sent.error).toBeNull();
    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Prihlásenie do Poradne');
    const link = mail.links[0]!;
    expect(link.startsWith(`${siteUrl(stack)}/auth/v1/verify?`)).toBe(true);
    expect(new URL(link).searchParams.get('type')).toBe('magiclink');

    const location = await openLink(stack, link);
    expect(`${location.origin}${location.pathname}`).toBe(callback);
    const params = fragmentParams(location);
    expect(params.get('token_type')).toBe('bearer');
    expect(params.get('type')).toBe('magiclink');
    expect(Number(params.get('expires_in'))).toBeGreaterThan(90);
    expect(Number(params.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);

    const set = await client.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    expect(set.data.user?.email).toBe(email);
    expect(set.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('works once: a second click redirects with error_code=otp_expired', async () => {
    const email = uniqueEmail('once');
    await anonClient(stack).auth.signInWithOtp({ email, options: { emailRedirectTo: callback } });
    const link = (await latestMail(stack, email)).links[0]!;
    expect(fragmentParams(await openLink(stack, link)).get('access_token')).toBeTruthy();
    const second = fragmentParams(await openLink(stack, link));
    expect(second.get('error')).toBe('access_denied');
    expect(second.get('error_code')).toBe('otp_expired');
    expect(second.get('error_description')).toBeTruthy();
  });

  it('expires after an hour', async () => {
    const email = uniqueEmail('expired');
    await anonClient(stack).auth.signInWithOtp({ email });
    const link = (await latestMail(stack, email)).links[0]!;
    await pool.query(
      `update auth.one_time_tokens set created_at = now() - interval '61 minutes'
       where user_id = (select id from auth.users where email = $1)`,
      [email],
    );
    expect(fragmentParams(await openLink(stack, link)).get('error_code')).toBe('otp_expired');
  });

  it('stores only a hash of the mailed token', async () => {
    const email = uniqueEmail('hash');
    await anonClient(stack).auth.signInWithOtp({ email });
    const token = new URL((await latestMail(stack, email)).links[0]!).searchParams.get('token')!;
    const rows = await pool.query<{ token_hash: string }>(
      `select token_hash from auth.one_time_tokens where user_id = (select id from auth.users where email = $1)`,
      [email],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.token_hash).not.toContain(token);
  });

  it('never redirects to another origin', async () => {
    const email = uniqueEmail('redirect');
    await anonClient(stack).auth.signInWithOtp({ email, options: { emailRedirectTo: 'https://evil.example/steal' } });
    const location = await openLink(stack, (await latestMail(stack, email)).links[0]!);
    expect(location.origin).toBe(siteUrl(stack));
    expect(fragmentParams(location).get('access_token')).toBeTruthy();
  });

  it('refuses an unknown address when create_user is false (otp_disabled)', async () => {
    const res = await anonClient(stack).auth.signInWithOtp({ email: uniqueEmail('nouser'), options: { shouldCreateUser: false } });
    expect(res.error).toMatchObject({ status: 422, code: 'otp_disabled' });
  });
});

describe('PKCE', () => {
  it('redirects with ?code= which exchangeCodeForSession turns into a session, once', async () => {
    const email = uniqueEmail('pkce');
    const client = pkceClient(stack);
    expect((await client.auth.signInWithOtp({ email, options: { emailRedirectTo: callback } })).error).toBeNull();
    const location = await openLink(stack, (await latestMail(stack, email)).links[0]!);
    expect(location.hash).toBe('');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.session?.refresh_token).toBeTruthy();

    const replay = await authFetch(stack, '/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect(replay.status).toBe(404);
    expect(((await replay.json()) as { code: string }).code).toBe('flow_state_not_found');
  });

  it('refuses a wrong code verifier with bad_code_verifier', async () => {
    const email = uniqueEmail('pkce-bad');
    await pkceClient(stack).auth.signInWithOtp({ email, options: { emailRedirectTo: callback } });
    const code = (await openLink(stack, (await latestMail(stack, email)).links[0]!)).searchParams.get('code')!;
    const res = await authFetch(stack, '/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: code, code_verifier: 'y'.repeat(43) }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('bad_code_verifier');
  });
});

describe('PKCE recovery', () => {
  it('exchanges the code from a recovery link with redirectType recovery', async () => {
    const email = uniqueEmail('pkce-rec');
    await signUpConfirmed(stack, anonClient(stack), { email, password: 'stare-heslo-1' });
    const client = pkceClient(stack);
    expect((await client.auth.resetPasswordForEmail(email, { redirectTo: callback })).error).toBeNull();
    const code = (await openLink(stack, (await latestMail(stack, email)).links[0]!)).searchParams.get('code')!;
    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data).toMatchObject({ redirectType: 'recovery' });
    expect((await client.auth.updateUser({ password: 'nove-heslo-3' })).error).toBeNull();
  });
});

describe('admin links', () => {
  it('confirms a user created by a signup link when the link is opened', async () => {
    const email = uniqueEmail('gen-signup');
    const admin = serviceClient(stack);
    const link = await admin.auth.admin.generateLink({ type: 'signup', email, password: 'heslo-123', options: { redirectTo: callback } });
    expect(link.error).toBeNull();
    expect(link.data.user?.email_confirmed_at).toBeFalsy();
    expect(link.data.properties?.verification_type).toBe('signup');
    const params = fragmentParams(await openLink(stack, link.data.properties!.action_link));
    expect(params.get('type')).toBe('signup');
    const signIn = await anonClient(stack).auth.signInWithPassword({ email, password: 'heslo-123' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('invites by mail', async () => {
    const email = uniqueEmail('invite');
    const invited = await serviceClient(stack).auth.admin.inviteUserByEmail(email, { redirectTo: callback });
    expect(invited.error).toBeNull();
    expect(invited.data.user?.invited_at).toBeTruthy();
    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Pozvánka do Poradne');
    expect(fragmentParams(await openLink(stack, mail.links[0]!)).get('type')).toBe('invite');
    const anon = await anonClient(stack).auth.admin.inviteUserByEmail(uniqueEmail('invite'));
    expect(anon.error).toMatchObject({ status: 403, code: 'not_admin' });
  });
});

describe('e-mail change and resend', () => {
  it('moves the account to a new address only when the links mailed to both addresses are opened', async () => {
    const email = uniqueEmail('old');
    const next = uniqueEmail('new');
    const client = anonClient(stack);
    await signUpConfirmed(stack, client, { email, password: 'heslo-123' });
    const updated = await client.auth.updateUser({ email: next }, { emailRedirectTo: callback });
    expect(updated.error).toBeNull();
    expect(updated.data.user).toMatchObject({ email, new_email: next });
    const mail = await latestMail(stack, next);
    expect(mail.subject).toBe('Potvrdenie zmeny e-mailu v Poradni');
    // The first confirmation only counts: GoTrue's message, no session, the address unchanged.
    const first = fragmentParams(await openLink(stack, mail.links[0]!));
    expect(first.get('message')).toMatch(/^Confirmation link accepted/);
    expect(first.get('access_token')).toBeNull();
    expect((await client.auth.getUser()).data.user?.email).toBe(email);
    const toOld = await latestMail(stack, email);
    expect(toOld.subject).toBe('Zmena e-mailu v Poradni');
    const params = fragmentParams(await openLink(stack, toOld.links[0]!));
    const got = await anonClient(stack).auth.getUser(params.get('access_token')!);
    expect(got.data.user?.email).toBe(next);
    expect((await anonClient(stack).auth.signInWithPassword({ email: next, password: 'heslo-123' })).error).toBeNull();
    expect((await latestMail(stack, email)).subject).toBe('E-mailová adresa v Poradni bola zmenená');
  });

  it('resends a pending signup confirmation and answers unknown addresses alike', async () => {
    const email = uniqueEmail('resend');
    await serviceClient(stack).auth.admin.generateLink({ type: 'signup', email, password: 'heslo-123' });
    const client = anonClient(stack);
    expect((await client.auth.resend({ type: 'signup', email, options: { emailRedirectTo: callback } })).error).toBeNull();
    expect((await latestMail(stack, email)).subject).toBe('Potvrdenie registrácie v Poradni');
    expect((await client.auth.resend({ type: 'signup', email: uniqueEmail('nobody') })).error).toBeNull();
  });
});

describe('verifyOtp', () => {
  it('signs in with a token_hash from generate_link, once', async () => {
    const email = uniqueEmail('hashotp');
    const admin = serviceClient(stack);
    expect((await admin.auth.admin.createUser({ email, email_confirm: true })).error).toBeNull();
    const link = await admin.auth.admin.generateLink({ type: 'magiclink', email });
    expect(link.error).toBeNull();
    expect(link.data.properties?.action_link).toContain('/auth/v1/verify?');
    expect(link.data.user?.email).toBe(email);
    const client = anonClient(stack);
    const hash = link.data.properties!.hashed_token;
    const first = await client.auth.verifyOtp({ token_hash: hash, type: 'magiclink' });
    expect(first.error).toBeNull();
    expect(first.data.session?.user.email).toBe(email);
    const second = await client.auth.verifyOtp({ token_hash: hash, type: 'magiclink' });
    expect(second.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('signs in with the 6-digit code from the mail and records amr otp', async () => {
    const email = uniqueEmail('code');
    const client = anonClient(stack);
    await client.auth.signInWithOtp({ email });
    const code = /kód: (\d{6})/.exec((await latestMail(stack, email)).text)![1]!;
    const wrong = await client.auth.verifyOtp({ email, token: code === '000000' ? '111111' : '000000', type: 'email' });
    expect(wrong.error).toMatchObject({ code: 'otp_expired' });
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    const payload = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString()) as {
      amr: { method: string }[];
    };
    expect(payload.amr[0]?.method).toBe('otp');
  });
});

describe('password recovery', () => {
  it('mails a recovery link whose session may set a new password', async () => {
    const email = uniqueEmail('recover');
    const client = anonClient(stack);
    await signUpConfirmed(stack, client, { email, password: 'stare-heslo-1' });
    expect((await client.auth.resetPasswordForEmail(email, { redirectTo: `${siteUrl(stack)}/auth/reset-password` })).error).toBeNull();
    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Obnovenie hesla v Poradni');
    const params = fragmentParams(await openLink(stack, mail.links[0]!));
    expect(params.get('type')).toBe('recovery');

    const reader = anonClient(stack);
    const set = await reader.auth.setSession({ access_token: params.get('access_token')!, refresh_token: params.get('refresh_token')! });
    expect(set.error).toBeNull();
    expect((await reader.auth.updateUser({ password: 'nove-heslo-2' })).error).toBeNull();
    const signIn = await anonClient(stack).auth.signInWithPassword({ email, password: 'nove-heslo-2' });
    expect(signIn.error).toBeNull();
    const old = await anonClient(stack).auth.signInWithPassword({ email, password: 'stare-heslo-1' });
    expect(old.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('answers an unknown address exactly like a known one and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    const res = await authFetch(stack, '/recover', { method: 'POST', body: JSON.stringify({ email }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const mails = (await (await fetch(`${stack.url}/_dev/mail.json`)).json()) as { to: string }[];
    expect(mails.some((m) => m.to === email)).toBe(false);
  });
});

// Issue 16 item 2, pre-account takeover through POST /auth/v1/signup. With hosted Supabase's
// defaults a sign-up mails a confirmation and answers no session; password sign-in is refused with
// 400 email_not_confirmed until the mailbox owner confirms; a password chosen by someone who never
// proved the mailbox does not survive the owner's own sign-in; DISABLE_SIGNUP=true closes public
// sign-up (422 signup_disabled) while the product's own registration (auth-link) keeps working.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { startAttackStack } from '../helpers/configured.ts';
import type { TestStack } from '../helpers/stack.ts';
import { fragmentParams, latestMail, openLink } from './auth-helpers.ts';

const stack = inject('stack');

describe('sign-up of an address the caller does not own', () => {
  it('answers the user without a session, mails a confirmation, and refuses the password until confirmed', async () => {
    const victim = uniqueEmail('victim');
    const attacker = anonClient(stack);
    const { data, error } = await attacker.auth.signUp({ email: victim, password: 'utocnik-123' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(victim);
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect((await latestMail(stack, victim)).subject).toBe('Potvrdenie registrácie v Poradni');
    const signIn = await anonClient(stack).auth.signInWithPassword({ email: victim, password: 'utocnik-123' });
    expect(signIn.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
    expect(signIn.data.session).toBeNull();
  });

  it("the attacker's password stops working once the owner signs in by magic link", async () => {
    const victim = uniqueEmail('owner');
    expect((await anonClient(stack).auth.signUp({ email: victim, password: 'utocnik-123' })).error).toBeNull();
    // The real owner signs in the way the product offers: a magic link to their mailbox.
    expect((await anonClient(stack).auth.signInWithOtp({ email: victim })).error).toBeNull();
    const mail = await latestMail(stack, victim);
    expect(mail.subject).toBe('Prihlásenie do Poradne');
    expect(fragmentParams(await openLink(stack, mail.links[0]!)).get('access_token')).toBeTruthy();
    const attacker = await anonClient(stack).auth.signInWithPassword({ email: victim, password: 'utocnik-123' });
    expect(attacker.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  });

  it('N8: the confirmation mail warns, before its link, that opening it activates a password someone else may know (opening it does, as on hosted GoTrue)', async () => {
    const victim = uniqueEmail('n8');
    expect((await anonClient(stack).auth.signUp({ email: victim, password: 'utocnik-123' })).error).toBeNull();
    const mail = await latestMail(stack, victim);
    const warning = mail.text.indexOf('Ak si sa neregistroval ty, na odkaz neklikaj');
    expect(warning).toBeGreaterThan(-1);
    expect(warning).toBeLessThan(mail.text.indexOf(mail.links[0]!));
    expect(mail.text).toContain('potvrdil by si účet s heslom, ktoré pozná niekto iný');
    // GoTrue's signupVerify keeps the sign-up's password (SECURITY.md, issue 36 N8): the stack does too.
    expect(fragmentParams(await openLink(stack, mail.links[0]!)).get('access_token')).toBeTruthy();
    expect((await anonClient(stack).auth.signInWithPassword({ email: victim, password: 'utocnik-123' })).error).toBeNull();
  });

  it('a repeated sign-up never replaces the pending password nor reveals a confirmed account', async () => {
    const email = uniqueEmail('again');
    expect((await anonClient(stack).auth.signUp({ email, password: 'majitel-123' })).error).toBeNull();
    expect((await anonClient(stack).auth.signUp({ email, password: 'utocnik-123' })).error).toBeNull();
    // The owner confirms with the newest mailed link.
    expect(fragmentParams(await openLink(stack, (await latestMail(stack, email)).links[0]!)).get('access_token')).toBeTruthy();
    expect((await anonClient(stack).auth.signInWithPassword({ email, password: 'utocnik-123' })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await anonClient(stack).auth.signInWithPassword({ email, password: 'majitel-123' })).error).toBeNull();
    // Confirmed now: a sign-up answers a fake user (GoTrue sanitizeUser), no session, no error.
    const probe = await anonClient(stack).auth.signUp({ email, password: 'utocnik-123' });
    expect(probe.error).toBeNull();
    expect(probe.data.session).toBeNull();
    expect(probe.data.user?.identities).toEqual([]);
  });
});

describe('DISABLE_SIGNUP=true', () => {
  let closed: TestStack;
  let ref: { url: string; anonKey: string; serviceRoleKey: string };
  beforeAll(async () => {
    closed = await startAttackStack({ disableSignup: true });
    ref = { url: closed.url, anonKey: closed.keys.anonKey, serviceRoleKey: closed.keys.serviceRoleKey };
  });
  afterAll(async () => {
    await closed.destroy();
  });

  it('refuses public sign-up with 422 signup_disabled and creates nothing', async () => {
    const email = uniqueEmail('closed');
    const res = await anonClient(ref).auth.signUp({ email, password: 'heslo-12345' });
    expect(res.error).toMatchObject({ status: 422, code: 'signup_disabled' });
    const users = await serviceClient(ref).auth.admin.listUsers();
    expect(users.data.users.some((u) => u.email === email)).toBe(false);
  });

  it('still registers through the admin API and the auth-link function', async () => {
    const admin = uniqueEmail('by-admin');
    expect((await serviceClient(ref).auth.admin.createUser({ email: admin, email_confirm: true })).error).toBeNull();
    const email = uniqueEmail('by-link');
    const res = await fetch(`${ref.url}/functions/v1/auth-link`, {
      method: 'POST',
      headers: { apikey: ref.anonKey, authorization: `Bearer ${ref.anonKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    expect((await latestMail(ref, email)).subject).toBe('Vitaj v Poradni – nastav si heslo');
  });
});

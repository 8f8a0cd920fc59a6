// Issue 16 item 3: auth-link used to create the user before any limit, and its inner password-reset
// call came from the server's own address, so every client shared one per-IP bucket: 40 calls made 40
// accounts and then registration failed for everyone. Now it limits by the real client (the first
// X-Forwarded-For hop the functions host sets) and by e-mail before anything is created.
// Issue 21 item 11: the registration mail is a welcome / set-your-password mail, and its link lands on
// /auth/reset-password also when the page was opened on another name of the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { uniqueEmail } from '../helpers/clients.ts';
import { fragmentParams, latestMail, openLink } from './auth-helpers.ts';
import { refOf, sql, type StackRef } from './functions-helpers.ts';

const LIMITS = { perClient: 10, perEmail: 3, windowSeconds: 600 };
// The auth service's own defaults, so a shared bucket would show as it does in production.
const AUTH_LIMITS = { perIp: 30, perEmail: 10, windowMs: 60_000 };

async function register(stack: TestStack, email: string, clientIp?: string, redirectTo?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.url}/functions/v1/auth-link`, {
    method: 'POST',
    headers: {
      apikey: stack.keys.anonKey,
      authorization: `Bearer ${stack.keys.anonKey}`,
      'content-type': 'application/json',
      ...(clientIp ? { 'x-forwarded-for': clientIp } : {}),
    },
    body: JSON.stringify({ email, ...(redirectTo ? { redirectTo } : {}) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function adminCreate(stack: TestStack, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${stack.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { apikey: stack.keys.serviceRoleKey, authorization: `Bearer ${stack.keys.serviceRoleKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function usersNamed(ref: StackRef, emails: string[]): Promise<string[]> {
  const rows = await sql<{ email: string }>(ref, 'select email from auth.users where email = any($1)', [emails]);
  return rows.map((r) => r.email).sort();
}

describe('auth-link limits (behind a proxy the stack trusts: clients named by X-Forwarded-For)', () => {
  let stack: TestStack;
  let ref: StackRef;
  beforeAll(async () => {
    stack = await startTestStack({ authLinkRateLimit: LIMITS, authRateLimit: AUTH_LIMITS, trustForwardedFor: true });
    ref = refOf(stack);
  });
  afterAll(async () => {
    await stack?.destroy();
  });

  it('40 calls from client A: A is limited, the refused calls create nothing, client B still registers', async () => {
    const emails = Array.from({ length: 40 }, (_, i) => uniqueEmail(`flood-${i}`));
    const replies = await Promise.all(emails.map((e) => register(stack, e, '203.0.113.40')));
    const ok = emails.filter((_, i) => replies[i]!.status === 200);
    const refused = emails.filter((_, i) => replies[i]!.status === 429);
    expect(ok).toHaveLength(LIMITS.perClient);
    expect(refused).toHaveLength(40 - LIMITS.perClient);
    for (const r of replies.filter((x) => x.status === 429)) expect(r.body).toEqual({ error: 'Príliš veľa pokusov. Skús to o chvíľu.' });
    expect(await usersNamed(ref, refused)).toEqual([]);
    expect(await usersNamed(ref, ok)).toEqual([...ok].sort());

    // Another client is not locked out, neither by A's bucket nor by a bucket of the server's own address.
    for (let i = 0; i < 3; i++) {
      const b = uniqueEmail(`client-b-${i}`);
      expect(await register(stack, b, `198.51.100.${i + 1}`)).toEqual({ status: 200, body: { message: 'E-mail bol odoslaný. Skontroluj si schránku a nastav si heslo.' } });
      expect(await usersNamed(ref, [b])).toEqual([b]);
      expect((await latestMail(stack, b)).subject).toBe('Vitaj v Poradni – nastav si heslo');
    }
  }, 120_000);

  it('one address is mailed at most perEmail times per window, from however many clients', async () => {
    const target = uniqueEmail('mailbomb');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await register(stack, target, `192.0.2.${i + 10}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const [n] = await sql<{ n: string }>(ref, 'select count(*) as n from auth.users where email = $1', [target]);
    expect(n!.n).toBe('1');
    // Other addresses from the same clients are unaffected.
    expect((await register(stack, uniqueEmail('mailbomb-other'), '192.0.2.10')).status).toBe(200);
  });

  it('the welcome mail replaces a password someone else set on the unconfirmed address, and an existing user gets the reset mail', async () => {
    // An unconfirmed address with a password chosen by someone else (pre-account takeover attempt).
    const victim = uniqueEmail('preacct');
    expect((await adminCreate(stack, { email: victim, password: 'attacker-pass-1', email_confirm: false })).status).toBe(200);
    const hash = async () => (await sql<{ p: string | null }>(ref, 'select encrypted_password as p from auth.users where email = $1', [victim]))[0]!.p;
    const before = await hash();
    expect((await register(stack, victim, '192.0.2.200')).status).toBe(200);
    expect(await hash()).not.toBe(before);
    expect((await latestMail(stack, victim)).subject).toBe('Vitaj v Poradni – nastav si heslo');

    const member = uniqueEmail('member');
    expect((await adminCreate(stack, { email: member, password: 'heslo12345', email_confirm: true })).status).toBe(200);
    expect((await register(stack, member, '192.0.2.201')).status).toBe(200);
    expect((await latestMail(stack, member)).subject).toBe('Obnovenie hesla v Poradni');
  });

  it('the registration link lands on /auth/reset-password, also when the page was opened on another name of the server', async () => {
    const email = uniqueEmail('other-name');
    const otherName = stack.url.replace('127.0.0.1', 'localhost');
    expect((await register(stack, email, '192.0.2.210', `${otherName}/auth/reset-password`)).status).toBe(200);
    const mail = await latestMail(stack, email);
    expect(mail.text).toContain('vitaj v Poradni');
    const link = mail.links.find((l) => l.includes('/auth/v1/verify'))!;
    const location = await openLink(stack, link);
    expect(`${location.origin}${location.pathname}`).toBe(`${stack.url}/auth/reset-password`);
    expect(fragmentParams(location).get('access_token')).toBeTruthy();
  });
});

describe('auth-link limits without a trusted proxy: a client cannot name a new address per request', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ authLinkRateLimit: LIMITS, trustForwardedFor: false });
  });
  afterAll(async () => {
    await stack?.destroy();
  });

  it('forged X-Forwarded-For values all count as the socket address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.perClient + 3; i++) statuses.push((await register(stack, uniqueEmail(`spoof-${i}`), `10.9.8.${i}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMITS.perClient);
    expect(statuses.slice(LIMITS.perClient)).toEqual([429, 429, 429]);
  });
});

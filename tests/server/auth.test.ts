// /auth/v1 contract through the unmodified supabase-js: sign-up, password sign-in, user, logout
// scopes, admin API, and bad input (malformed JSON, missing, expired and forged JWTs).
import { SignJWT, decodeJwt } from 'jose';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { authFetch } from './auth-helpers.ts';

const stack = inject('stack');
const PASSWORD = 'heslo-123';

async function signedUp(email = uniqueEmail('auth')) {
  const client = anonClient(stack);
  const { data, error } = await signUpConfirmed(stack, client, { email, password: PASSWORD, data: { name: 'Jana' } });
  expect(error).toBeNull();
  return { client, email, session: data.session!, user: data.user! };
}

describe('sign-up and password sign-in', () => {
  it('signs up, confirms with the mailed code and answers a session with Supabase claims', async () => {
    const { session, user, email } = await signedUp();
    expect(session.access_token && session.refresh_token && session.expires_in).toBeTruthy();
    expect(session.token_type).toBe('bearer');
    expect(user.email).toBe(email);
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.user_metadata).toMatchObject({ name: 'Jana' });
    expect(user.identities?.[0]?.provider).toBe('email');
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: `${stack.url}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Jana' },
      is_anonymous: false,
    });
    expect(claims.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);
    expect(typeof claims.session_id).toBe('string');
    expect(claims.exp! - claims.iat!).toBe(session.expires_in);
  });

  it('refuses a duplicate, a weak password and an invalid address with GoTrue codes', async () => {
    const { email, user } = await signedUp();
    const client = anonClient(stack);
    // GoTrue without autoconfirm: a confirmed address answers a fake user (no enumeration), no session.
    const dup = await client.auth.signUp({ email: email.toUpperCase(), password: PASSWORD });
    expect(dup.error).toBeNull();
    expect(dup.data.session).toBeNull();
    expect(dup.data.user?.id).not.toBe(user.id);
    const weak = await client.auth.signUp({ email: uniqueEmail(), password: 'abc' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    const bad = await client.auth.signUp({ email: 'not-an-address', password: PASSWORD });
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('signs in with the password and records last_sign_in_at', async () => {
    const { email, user } = await signedUp();
    const client = anonClient(stack);
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(new Date(data.user!.last_sign_in_at!).getTime()).toBeGreaterThanOrEqual(new Date(user.last_sign_in_at!).getTime());
    const got = await client.auth.getUser();
    expect(got.data.user?.email).toBe(email);
  });

  it('answers a wrong password and an unknown address alike: invalid_credentials', async () => {
    const { email } = await signedUp();
    const client = anonClient(stack);
    const wrong = await client.auth.signInWithPassword({ email, password: 'zle-heslo' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    const unknown = await client.auth.signInWithPassword({ email: uniqueEmail('nobody'), password: PASSWORD });
    expect(unknown.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    expect(unknown.error?.message).toBe(wrong.error?.message);
  });

  it("a test stack hashes at bcrypt's quick cost, the seeded demo users too, and they sign in", async () => {
    // tests/helpers/stack.ts (issue 42), as GoTrue's own tests; `npm start` keeps cost 10
    // (tests/unit/stack/password-cost.test.ts).
    const { email } = await signedUp();
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ email: string; cost: string }>(
        `select email, substring(encrypted_password from 5 for 2) as cost from auth.users where email = any($1) order by email`,
        [[email, 'demo@poradna.test', 'admin@poradna.test']],
      );
      expect(rows.map((r) => r.cost)).toEqual(['04', '04', '04']);
    } finally {
      await db.end();
    }
    const demo = await anonClient(stack).auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    expect(demo.error).toBeNull();
    expect(demo.data.user?.email).toBe('demo@poradna.test');
  });

  it('updates metadata and refuses an unchanged password with same_password', async () => {
    const { client } = await signedUp();
    const meta = await client.auth.updateUser({ data: { name: null, city: 'Nitra' } });
    expect(meta.error).toBeNull();
    expect(meta.data.user?.user_metadata).toEqual({ city: 'Nitra' });
    const same = await client.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
  });
});

describe('logout scopes', () => {
  async function sessions(email: string, n: number) {
    const clients = [];
    for (let i = 0; i < n; i++) {
      const c = anonClient(stack);
      const { error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
      expect(error).toBeNull();
      clients.push(c);
    }
    return clients;
  }
  const alive = async (c: ReturnType<typeof anonClient>, token: string) => !(await c.auth.getUser(token)).error;

  it('local ends only the current session, others all but it, global every one', async () => {
    const { email } = await signedUp();
    const [a, b, c, d] = await sessions(email, 4);
    const tokens = await Promise.all([a!, b!, c!, d!].map(async (x) => (await x.auth.getSession()).data.session!.access_token));
    const probe = anonClient(stack);

    expect((await a!.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await alive(probe, tokens[0]!)).toBe(false);
    expect(await alive(probe, tokens[1]!)).toBe(true);

    expect((await b!.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await alive(probe, tokens[1]!)).toBe(true);
    expect(await alive(probe, tokens[2]!)).toBe(false);
    expect(await alive(probe, tokens[3]!)).toBe(false);

    expect((await b!.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect(await alive(probe, tokens[1]!)).toBe(false);
    const ended = await probe.auth.getUser(tokens[1]);
    expect(ended.error?.name).toBe('AuthSessionMissingError');
  });

  it('refuses an unknown scope with 400', async () => {
    const { session } = await signedUp();
    const res = await authFetch(stack, '/logout?scope=everything', { method: 'POST', token: session.access_token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('validation_failed');
  });
});

describe('admin API', () => {
  it('creates, gets, lists and deletes users with the service role', async () => {
    const admin = serviceClient(stack);
    const email = uniqueEmail('admin');
    const created = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { a: 1 } });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.email_confirmed_at).toBeTruthy();

    const client = anonClient(stack);
    const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    const token = signIn.data.session!.access_token;

    const got = await admin.auth.admin.getUserById(id);
    expect(got.data.user).toMatchObject({ id, email, user_metadata: { a: 1 } });
    const dup = await admin.auth.admin.createUser({ email, password: PASSWORD });
    expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });

    const list = await admin.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(list.error).toBeNull();
    expect(list.data.users.length).toBeLessThanOrEqual(2);
    expect(list.data.users.length).toBeGreaterThan(0);

    expect((await admin.auth.admin.deleteUser(id)).error).toBeNull();
    expect((await admin.auth.admin.getUserById(id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
    expect((await client.auth.getUser(token)).error).toBeTruthy();
    const again = await anonClient(stack).auth.signInWithPassword({ email, password: PASSWORD });
    expect(again.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('creates one user when the same address is created many times at once; the others get 422 email_exists, never a 500', async () => {
    // Concurrent transactions all find no user, so all but one are refused by the unique index on the
    // address: supabase/local/auth/db.ts withTxNewEmail answers GoTrue's email_exists for that.
    const admin = serviceClient(stack);
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 6 }, () => admin.auth.admin.createUser({ email, password: PASSWORD })));
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    for (const r of results.filter((x) => x.error !== null)) expect(r.error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('refuses the anon key and user JWTs with 403 not_admin, and no JWT with 401', async () => {
    const asAnon = await anonClient(stack).auth.admin.listUsers();
    expect(asAnon.error).toMatchObject({ status: 403, code: 'not_admin' });
    const { session } = await signedUp();
    const asUser = await authFetch(stack, '/admin/users', { token: session.access_token });
    expect(asUser.status).toBe(403);
    const none = await authFetch(stack, '/admin/users');
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe('no_authorization');
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400 bad_json in GoTrue shape', async () => {
    const res = await authFetch(stack, '/token?grant_type=password', { method: 'POST', body: '{"email":' });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await res.json()).toMatchObject({ code: 'bad_json', error_code: 'bad_json', msg: expect.any(String) });
  });

  it('answers unknown auth routes and grant types without falling through to the PWA', async () => {
    const unknown = await authFetch(stack, '/no-such-endpoint');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('not_found');
    const grant = await authFetch(stack, '/token?grant_type=magic', { method: 'POST', body: '{}' });
    expect(grant.status).toBe(400);
    const type = await authFetch(stack, '/verify', { method: 'POST', body: JSON.stringify({ type: 'constructor', token_hash: 'x' }) });
    expect(type.status).toBe(400);
    const notObject = await authFetch(stack, '/signup', { method: 'POST', body: '[1,2]' });
    expect(notObject.status).toBe(400);
  });

  it('refuses /user without a token (401), with an expired (403) or a forged JWT (403)', async () => {
    const { session } = await signedUp();
    const claims = decodeJwt(session.access_token);
    const none = await authFetch(stack, '/user');
    expect(none.status).toBe(401);

    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await new SignJWT({ ...claims, iat: past - 3600, exp: past })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(stack.jwtSecret));
    const exp = await anonClient(stack).auth.getUser(expired);
    expect(exp.error).toMatchObject({ status: 403, code: 'bad_jwt' });

    const forged = await new SignJWT({ ...claims, role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
    const f = await anonClient(stack).auth.getUser(forged);
    expect(f.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    const forgedAdmin = await authFetch(stack, '/admin/users', { token: forged });
    expect(forgedAdmin.status).toBe(403);
  });

  it('serves /settings and /health', async () => {
    const settings = await authFetch(stack, '/settings');
    expect(await settings.json()).toMatchObject({ mailer_autoconfirm: true, external: { email: true } });
    expect((await authFetch(stack, '/health')).status).toBe(200);
  });
});

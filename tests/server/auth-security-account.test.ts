// Issue 16 item 10: what a stolen access token (or an unattended signed-in browser) can do to the
// account. Moving the account to another address needs the links mailed to both the current and the
// new address (GoTrue's secure e-mail change), and the old address is told; setting a new password
// needs a recent sign-in or the nonce GET /reauthenticate mails (GoTrue's
// SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION). A session is made "old" by moving its
// auth.sessions.created_at back past the window, as time would.
import { decodeJwt } from 'jose';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { anonClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { mailedCode, signUpConfirmed } from '../helpers/signup.ts';
import { fragmentParams, latestMail, openLink } from './auth-helpers.ts';
import { MAX_CODE_ATTEMPTS } from '../../supabase/local/auth/one-time-tokens.ts';

const stack = inject('stack');
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => pool.end());

async function member(prefix: string): Promise<{ client: Client; email: string; token: string }> {
  const client = anonClient(stack);
  const email = uniqueEmail(prefix);
  const { data, error } = await signUpConfirmed(stack, client, { email, password: 'povodne-heslo' });
  expect(error).toBeNull();
  return { client, email, token: data.session!.access_token };
}

/** The session signed in 25 hours ago (past GoTrue's 24-hour reauthentication window). */
async function ageSession(accessToken: string): Promise<void> {
  const sid = decodeJwt(accessToken).session_id as string;
  const r = await pool.query(`update auth.sessions set created_at = now() - interval '25 hours' where id = $1`, [sid]);
  expect(r.rowCount).toBe(1);
}

describe('e-mail change with only an access token', () => {
  it('the new address alone cannot take the account; the owner is told and must confirm too', async () => {
    const { client, email } = await member('stolen');
    const attackerBox = uniqueEmail('attacker');
    const asked = await client.auth.updateUser({ email: attackerBox });
    expect(asked.error).toBeNull();
    expect(asked.data.user?.email).toBe(email);

    // The old address hears about it at once.
    expect((await latestMail(stack, email)).subject).toBe('Zmena e-mailu v Poradni');

    // The attacker confirms in their own mailbox: only the first half, no session, no move.
    const link = (await latestMail(stack, attackerBox)).links[0]!;
    const opened = fragmentParams(await openLink(stack, link));
    expect(opened.get('access_token')).toBeNull();
    expect(opened.get('message')).toMatch(/^Confirmation link accepted/);
    expect((await client.auth.getUser()).data.user?.email).toBe(email);
    expect((await anonClient(stack).auth.signInWithOtp({ email: attackerBox, options: { shouldCreateUser: false } })).error).toMatchObject({
      code: 'otp_disabled',
    });
    const row = await pool.query<{ email: string }>('select email from auth.users where lower(email) = $1', [email]);
    expect(row.rows[0]?.email).toBe(email);
  });
});

// Issue 36 F12: these three answers tell whether an address has an account, on hosted GoTrue too;
// the stack answers exactly as GoTrue (SECURITY.md says so, with GoTrue's files), never differently.
describe('F12: address-revealing answers are hosted GoTrue\'s, word for word', () => {
  it('PUT /user to a taken address, /otp with create_user:false, and /signup of a confirmed address', async () => {
    const owner = await member('f12-owner');
    const other = await member('f12-other');
    // internal/api/user.go UserUpdate: IsDuplicatedEmail → 422 email_exists, DuplicateEmailMsg.
    const taken = await other.client.auth.updateUser({ email: owner.email });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists', message: 'A user with this email address has already been registered' });
    // internal/api/otp.go shouldCreateUser: an unknown address → 422 otp_disabled; a known one is mailed.
    const unknown = await anonClient(stack).auth.signInWithOtp({ email: uniqueEmail('f12-none'), options: { shouldCreateUser: false } });
    expect(unknown.error).toMatchObject({ status: 422, code: 'otp_disabled', message: 'Signups not allowed for otp' });
    expect((await anonClient(stack).auth.signInWithOtp({ email: owner.email, options: { shouldCreateUser: false } })).error).toBeNull();
    // internal/api/signup.go: a confirmed address answers 200 with sanitizeUser's fake user, identities [].
    const again = await anonClient(stack).auth.signUp({ email: owner.email, password: 'utocnik-123' });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user?.identities).toEqual([]);
    expect(again.data.user?.id).not.toBe(decodeJwt(owner.token).sub);
  });
});

describe('password change', () => {
  it('a fresh sign-in may set a new password without a nonce', async () => {
    const { client } = await member('fresh');
    expect((await client.auth.updateUser({ password: 'nove-heslo-1' })).error).toBeNull();
  });

  it('an old session needs the mailed nonce; a wrong one is refused', async () => {
    const { client, email, token } = await member('old');
    await ageSession(token);
    const bare = await client.auth.updateUser({ password: 'prevzate-heslo' });
    expect(bare.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    const forged = await client.auth.updateUser({ password: 'prevzate-heslo', nonce: '000000' });
    expect(forged.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect((await anonClient(stack).auth.signInWithPassword({ email, password: 'prevzate-heslo' })).error).toMatchObject({
      code: 'invalid_credentials',
    });

    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMail(stack, email);
    expect(mail.subject).toBe('Overovací kód pre Poradňu');
    const nonce = await mailedCode(stack, email);
    expect((await client.auth.updateUser({ password: 'nove-heslo-2', nonce })).error).toBeNull();
    expect((await anonClient(stack).auth.signInWithPassword({ email, password: 'nove-heslo-2' })).error).toBeNull();
    // Single use.
    expect((await client.auth.updateUser({ password: 'nove-heslo-3', nonce })).error).toMatchObject({ code: 'reauthentication_not_valid' });
  });

  it(`the nonce dies after ${MAX_CODE_ATTEMPTS} wrong guesses`, async () => {
    const { client, email, token } = await member('nonce');
    await ageSession(token);
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const nonce = await mailedCode(stack, email);
    for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
      const guess = String((Number(nonce) + i) % 1_000_000).padStart(6, '0');
      expect((await client.auth.updateUser({ password: 'hadane-heslo', nonce: guess })).error).toMatchObject({ code: 'reauthentication_not_valid' });
    }
    expect((await client.auth.updateUser({ password: 'hadane-heslo', nonce })).error).toMatchObject({ code: 'reauthentication_not_valid' });
  });
});

// Attacks that must all be refused on the server: forged, unsigned, expired and role-escalating JWTs
// on every API; a member calling every admin RPC and starting an impersonation; a member reaching
// another account's rows. (Refresh-token reuse, brute force and the webhook secret have their own
// tests in auth-refresh, auth and functions-webhook.)
import { SignJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';

const stack = inject('stack');
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

async function signed(secret: string, claims: Record<string, unknown>, exp = now() + 3600): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now() - 10).setExpirationTime(exp).sign(new TextEncoder().encode(secret));
}

async function badTokens(): Promise<Record<string, string>> {
  const admin = { sub: '00000000-0000-4000-a000-000000000002', role: 'service_role', aud: 'authenticated' };
  return {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...admin, exp: now() + 3600 })}.`,
    'wrong secret': await signed('x'.repeat(48), admin),
    'expired': await signed(stack.jwtSecret, { sub: admin.sub, role: 'authenticated', aud: 'authenticated' }, now() - 120),
    'role forged in the payload': (() => {
      const [h, , s] = stack.anonKey.split('.');
      return `${h}.${b64({ role: 'service_role', iss: 'poradna-local', exp: now() + 3600 })}.${s}`;
    })(),
  };
}

describe('forged JWTs are refused everywhere', () => {
  it('on /rest/v1, /auth/v1/user and verify_jwt functions', async () => {
    for (const [name, token] of Object.entries(await badTokens())) {
      const rest = await fetch(`${stack.url}/rest/v1/accounts?select=id`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` } });
      expect(rest.status, `rest: ${name}`).toBe(401);
      const user = await fetch(`${stack.url}/auth/v1/user`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` } });
      expect([401, 403], `auth: ${name}`).toContain(user.status);
      const fn = await fetch(`${stack.url}/functions/v1/delete-user`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{"userEmail":"demo@poradna.test"}' });
      expect(fn.status, `functions: ${name}`).toBe(401);
    }
  });

  it('as an API key (apikey header) too', async () => {
    const forged = (await badTokens())['role forged in the payload']!;
    const res = await fetch(`${stack.url}/rest/v1/accounts?select=id`, { headers: { apikey: forged } });
    expect(res.status).toBe(401);
  });
});

describe('a member cannot act as an admin', () => {
  it('every admin RPC and impersonation is refused', async () => {
    const member = anonClient(stack);
    await signUpConfirmed(stack, member, { email: uniqueEmail('attack'), password: 'heslo12345' });
    // druhy@poradna.test's real account: the target of every attempt.
    const row = await serviceClient(stack).from('account_users').select('account_id').eq('user_id', '00000000-0000-4000-a000-000000000003').single();
    const someAccount = (row.data as { account_id: string }).account_id;
    const before = await serviceClient(stack).from('accounts').select('plan, specialists_mode').eq('id', someAccount).single();
    const spec = '00000000-0000-4000-8000-000000000010';
    const calls: [string, Record<string, unknown>][] = [
      ['start_impersonation', { p_account_id: someAccount }],
      ['assign_specialists_for_plan', { p_account_id: someAccount }],
      ['admin_set_specialists_mode', { p_account_id: someAccount, p_mode: 'CUSTOM' }],
      ['admin_assign_specialist', { p_account_id: someAccount, p_specialist_id: spec }],
      ['admin_unassign_specialist', { p_account_id: someAccount, p_specialist_id: spec }],
      ['admin_change_plan', { p_account_id: someAccount, p_plan_code: 'ENTERPRISE' }],
      ['get_super_admin_emails', {}],
      ['admin_delete_user', { p_email: 'druhy@poradna.test' }],
      ['admin_open_conversation', { p_account_id: someAccount, p_specialist_id: spec }],
      ['admin_schema_report', {}],
    ];
    for (const [fn, args] of calls) {
      const { error } = await member.rpc(fn, args);
      expect(error, fn).not.toBeNull();
    }
    // Nothing changed: the account is as it was, druhy still signs in, no impersonation exists.
    const after = await serviceClient(stack).from('accounts').select('plan, specialists_mode').eq('id', someAccount).single();
    expect(after.data).toEqual(before.data);
    expect((await anonClient(stack).auth.signInWithPassword({ email: 'druhy@poradna.test', password: 'poradna123' })).error).toBeNull();
    const imp = await serviceClient(stack).from('impersonations').select('account_id').eq('account_id', someAccount);
    expect(imp.data).toEqual([]);
  });
});

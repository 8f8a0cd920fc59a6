// Issue 17 item 7: the local auth refuses every address GoTrue refuses, with GoTrue's answer
// (supabase/auth internal/api/mail.go validateEmail: 400 validation_failed "Unable to validate email
// address: invalid format"), on every endpoint that takes an address; a valid address is lowercased.
import { describe, expect, inject, it } from 'vitest';
import { anonClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { authFetch } from './auth-helpers.ts';
import { checkEmailFormat } from '../../supabase/functions/_shared/email-format.ts';

const stack = inject('stack');
const INVALID = ['xx:;x@x.x', 'a b@x.sk', 'a@b@x.sk', 'jána@x.sk', 'a@-x.sk', 'a@x-.sk', 'a@x..sk', 'a@x.sk.', '@x.sk', 'a@', 'a@x_y.sk', '"a"@x.sk', 'a@[127.0.0.1]', ' a@x.sk'];
const FORMAT = 'Unable to validate email address: invalid format';

describe('GoTrue e-mail validation', () => {
  it('the validator module agrees with checkmail on valid and invalid shapes', () => {
    for (const bad of INVALID) expect(checkEmailFormat(bad), bad).toEqual({ ok: false, message: FORMAT });
    expect(checkEmailFormat('')).toEqual({ ok: false, message: 'An email address is required' });
    expect(checkEmailFormat(`${'a'.repeat(251)}@x.sk`)).toEqual({ ok: false, message: 'An email address is too long' });
    for (const good of ["o'brien+tag@Example.SK", 'a@localhost', 'x.y!#$%&*=?^_`{|}~-@sub-1.example.com']) {
      expect(checkEmailFormat(good)).toEqual({ ok: true, email: good.toLowerCase() });
    }
  });

  it('every endpoint that takes an address answers 400 validation_failed for xx:;x@x.x', async () => {
    const { data } = await signUpConfirmed(stack, anonClient(stack), { email: uniqueEmail('fmt'), password: 'heslo-12345' });
    const user = data.session!.access_token;
    const admin = stack.serviceRoleKey;
    const email = 'xx:;x@x.x';
    const calls: [string, string, Record<string, unknown>, string?][] = [
      ['POST', '/signup', { email, password: 'heslo-12345' }],
      ['POST', '/otp', { email }],
      ['POST', '/recover', { email }],
      ['POST', '/resend', { email, type: 'signup' }],
      ['POST', '/verify', { email, token: '123456', type: 'email' }],
      ['PUT', '/user', { email }, user],
      ['POST', '/admin/users', { email, password: 'heslo-12345' }, admin],
      ['POST', '/invite', { email }, admin],
      ['POST', '/admin/generate_link', { email, type: 'magiclink' }, admin],
    ];
    const wrong: string[] = [];
    for (const [method, path, body, token] of calls) {
      const res = await authFetch(stack, path, { method, body: JSON.stringify(body), ...(token ? { token } : {}) });
      const json = (await res.json()) as { code?: string; msg?: string };
      if (res.status !== 400 || json.code !== 'validation_failed' || json.msg !== FORMAT) {
        wrong.push(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

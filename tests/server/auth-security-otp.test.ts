// Issue 16 item 11: a mailed 6-digit code dies after MAX_CODE_ATTEMPTS wrong guesses, whatever the
// per-minute rate limits allow (the shared test stack sets them high, as a patient attacker spreading
// guesses over time would see them). A user who mistypes a few times still gets in.
import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { mailedCode } from '../helpers/signup.ts';
import { MAX_CODE_ATTEMPTS } from '../../supabase/local/auth/one-time-tokens.ts';

const stack = inject('stack');

const wrong = (code: string, n: number) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

async function userWithCode(prefix: string) {
  const email = uniqueEmail(prefix);
  expect((await serviceClient(stack).auth.admin.createUser({ email, email_confirm: true })).error).toBeNull();
  expect((await anonClient(stack).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
  return { email, code: await mailedCode(stack, email) };
}

describe('6-digit code guessing', () => {
  it(`the right code is refused after ${MAX_CODE_ATTEMPTS} wrong guesses`, async () => {
    const { email, code } = await userWithCode('guess');
    const attacker = anonClient(stack);
    for (let i = 1; i <= MAX_CODE_ATTEMPTS; i++) {
      const r = await attacker.auth.verifyOtp({ email, token: wrong(code, i), type: 'email' });
      expect(r.error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    const hit = await attacker.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(hit.error).toMatchObject({ status: 403, code: 'otp_expired' });
    expect(hit.data.session).toBeNull();
  });

  it('a few typos do not lock the owner out', async () => {
    const { email, code } = await userWithCode('typo');
    const owner = anonClient(stack);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) {
      expect((await owner.auth.verifyOtp({ email, token: wrong(code, i), type: 'email' })).error).toMatchObject({ code: 'otp_expired' });
    }
    const ok = await owner.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.user.email).toBe(email);
  });
});

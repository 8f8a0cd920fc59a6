// The bcrypt cost of auth's password hashes (StackConfig.passwordHashCost, issue 42): GoTrue's 10 by
// default and whenever the stack is started from the environment (`npm start`), the quick cost only
// where a test stack asks for it, and a comparison always at the cost stored in the hash.
import { describe, expect, it } from 'vitest';
import { DEFAULT_HASH_COST, hashPassword, passwordMatches } from '../../../supabase/local/auth/credentials.ts';
import { readConfig } from '../../../supabase/local/config.ts';

const costOf = (hash: string) => Number(/^\$2[aby]\$(\d\d)\$/.exec(hash)?.[1]);

describe('password hash cost', () => {
  it("hashes at GoTrue's cost 10 unless a cost is given", async () => {
    expect(DEFAULT_HASH_COST).toBe(10);
    expect(costOf(await hashPassword('heslo-123'))).toBe(10);
    expect(costOf(await hashPassword('heslo-123', 4))).toBe(4);
  });

  it('compares at the cost stored in the hash, whatever the stack hashes new passwords at', async () => {
    const strong = await hashPassword('heslo-123');
    expect(await passwordMatches('heslo-123', strong, 4)).toBe(true);
    expect(await passwordMatches('heslo-124', strong, 4)).toBe(false);
    const quick = await hashPassword('heslo-123', 4);
    expect(await passwordMatches('heslo-123', quick)).toBe(true);
    // An unknown address (no hash) is compared against a dummy and refused.
    expect(await passwordMatches('heslo-123', null, 4)).toBe(false);
    expect(await passwordMatches('heslo-123', null)).toBe(false);
  });

  it('is never read from the environment: a stack started as `npm start` hashes as hosted does', () => {
    const env = { PASSWORD_HASH_COST: '4', AUTH_PASSWORD_HASH_COST: '4', GOTRUE_PASSWORD_HASH_COST: '4', BCRYPT_COST: '4' };
    expect(readConfig(env).passwordHashCost).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { isPasswordAcceptable, passwordProblems } from '../../../src/lib/password-rules.ts';

const descriptions = (p: string, c: string) => passwordProblems(p, c).map((x) => x.description);

describe('new-password rules (user-area.md section 5)', () => {
  it('accepts 8+ characters with a digit and a matching confirmation', () => {
    expect(passwordProblems('heslo123', 'heslo123')).toEqual([]);
    expect(isPasswordAcceptable('abcdefg1', 'abcdefg1')).toBe(true);
  });
  it("rejects short passwords as 'Slabé heslo' / 'Heslo musí mať aspoň 8 znakov.'", () => {
    const [problem] = passwordProblems('abc1234', 'abc1234');
    expect(problem).toEqual({ field: 'password', title: 'Slabé heslo', description: 'Heslo musí mať aspoň 8 znakov.' });
  });
  it("requires a digit: 'Heslo musí obsahovať aspoň jednu číslicu.'", () => {
    expect(descriptions('abcdefgh', 'abcdefgh')).toEqual(['Heslo musí obsahovať aspoň jednu číslicu.']);
  });
  it("requires the confirmation to match: 'Heslá sa nezhodujú'", () => {
    expect(passwordProblems('heslo123', 'heslo124')).toEqual([
      { field: 'confirm', title: 'Heslá sa nezhodujú', description: 'Zadané heslá sa nezhodujú. Skús to znova.' },
    ]);
  });
  it('reports every broken rule at once', () => {
    expect(descriptions('abc', '')).toEqual([
      'Heslo musí mať aspoň 8 znakov.',
      'Heslo musí obsahovať aspoň jednu číslicu.',
      'Zadané heslá sa nezhodujú. Skús to znova.',
    ]);
    expect(isPasswordAcceptable('', '')).toBe(false);
  });
  it('counts exactly 8 characters as enough', () => {
    expect(isPasswordAcceptable('1234567a', '1234567a')).toBe(true);
    expect(isPasswordAcceptable('123456a', '123456a')).toBe(false);
  });
});

// New-password rules (user-area.md section 5): at least 8 characters, at least one digit, and a
// matching confirmation. The submit button stays disabled until every rule holds.
import { sk } from '../text/sk.ts';

export const PASSWORD_MIN_LENGTH = 8;

export interface PasswordProblem {
  field: 'password' | 'confirm';
  title: string;
  description: string;
}

export function passwordProblems(password: string, confirm: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) {
    problems.push({ field: 'password', title: sk.password.weakTitle, description: sk.password.tooShort });
  }
  if (!/\d/.test(password)) {
    problems.push({ field: 'password', title: sk.password.weakTitle, description: sk.password.needsDigit });
  }
  if (password !== confirm) {
    problems.push({ field: 'confirm', title: sk.password.mismatchTitle, description: sk.password.mismatch });
  }
  return problems;
}

export function isPasswordAcceptable(password: string, confirm: string): boolean {
  return passwordProblems(password, confirm).length === 0;
}

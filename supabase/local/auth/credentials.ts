// E-mail and password rules, and bcrypt. E-mail: GoTrue's validateEmail (email-format.ts). Passwords:
// GoTrue requires 6 characters by default and refuses more than 72 bytes (bcrypt ignores the rest).
import bcrypt from 'bcryptjs';
import { checkEmailFormat } from '../../functions/_shared/email-format.ts';
import { unprocessable, validationFailed, weakPassword } from './errors.ts';

export const MIN_PASSWORD_LENGTH = 6;
/** GoTrue's cost (bcrypt.DefaultCost); StackConfig.passwordHashCost says when another is used. */
export const DEFAULT_HASH_COST = 10;
const MAX_PASSWORD_BYTES = 72;
/** The lowercased address, or GoTrue's 400 validation_failed with its exact message. */
export function normalizeEmail(raw: string | undefined): string {
  const check = checkEmailFormat(raw);
  if (!check.ok) throw validationFailed(check.message);
  return check.email;
}

export function checkPassword(password: string | undefined): string {
  if (password === undefined || password === '') throw validationFailed('Password is required');
  if ([...password].length < MIN_PASSWORD_LENGTH) throw weakPassword(MIN_PASSWORD_LENGTH);
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw unprocessable('validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
  return password;
}

export function hashPassword(password: string, cost = DEFAULT_HASH_COST): Promise<string> {
  return bcrypt.hash(password, cost);
}

// A real hash of a random string at the stack's cost: comparing against it costs what a real
// comparison costs, so an unknown e-mail answers no faster than a wrong password (no account
// enumeration by timing). Made once per cost, on first use.
const dummyHashes = new Map<number, string>();
function dummyHash(cost: number): string {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = bcrypt.hashSync(`dummy-${Math.random()}`, cost)));
  return hash;
}

/** `cost`: the stack's hash cost, for the unknown address's dummy comparison (a stored hash carries its own). */
export async function passwordMatches(password: string, hash: string | null, cost = DEFAULT_HASH_COST): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, dummyHash(cost));
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

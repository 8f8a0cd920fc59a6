// E-mail and password rules, and bcrypt. GoTrue lowercases addresses, requires 6 characters by
// default and refuses more than 72 bytes (bcrypt silently ignores the rest).
import bcrypt from 'bcryptjs';
import { unprocessable, validationFailed, weakPassword } from './errors.ts';

export const MIN_PASSWORD_LENGTH = 6;
const BCRYPT_COST = 10;
const MAX_PASSWORD_BYTES = 72;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(raw: string | undefined): string {
  const email = (raw ?? '').trim().toLowerCase();
  if (email === '') throw validationFailed('Email address is required');
  if (email.length > 255 || !EMAIL_RE.test(email)) {
    throw validationFailed(`Unable to validate email address: invalid format`);
  }
  return email;
}

export function checkPassword(password: string | undefined): string {
  if (password === undefined || password === '') throw validationFailed('Password is required');
  if ([...password].length < MIN_PASSWORD_LENGTH) throw weakPassword(MIN_PASSWORD_LENGTH);
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw unprocessable('validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
  }
  return password;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

// A real hash of a random string: comparing against it costs what a real comparison costs, so an
// unknown e-mail answers no faster than a wrong password (no account enumeration by timing).
const dummyHash = bcrypt.hashSync(`dummy-${Math.random()}`, BCRYPT_COST);

export async function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, dummyHash);
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

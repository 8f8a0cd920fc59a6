// Small body validators: each returns the typed value or throws HttpError(400) with a clear message.
import { HttpError } from './http.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function uuid(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || !UUID_RE.test(v)) throw new HttpError(400, `${key} must be a UUID`);
  return v.toLowerCase();
}

export function optionalString(body: Record<string, unknown>, key: string, max = 10_000): string | null {
  const v = body[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new HttpError(400, `${key} must be a string`);
  if (v.length > max) throw new HttpError(400, `${key} is longer than ${max} characters`);
  return v;
}

export function requiredString(body: Record<string, unknown>, key: string, max = 10_000): string {
  const v = optionalString(body, key, max);
  if (v === null || v.trim() === '') throw new HttpError(400, `${key} is required`);
  return v;
}

export function email(body: Record<string, unknown>, key: string): string {
  const v = requiredString(body, key, 320).trim().toLowerCase();
  if (!EMAIL_RE.test(v)) throw new HttpError(400, `${key} must be an e-mail address`);
  return v;
}

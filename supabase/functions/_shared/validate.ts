// Small body validators: each returns the typed value or throws HttpError(400) with a clear message.
import { checkEmailFormat } from './email-format.ts';
import { HttpError } from './http.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  // GoTrue's own rule (issue 17 item 7): an address GoTrue would refuse is refused here with its words.
  const checked = checkEmailFormat(requiredString(body, key, 320).trim());
  if (!checked.ok) throw new HttpError(400, checked.message);
  return checked.email;
}

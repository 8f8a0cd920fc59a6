// GoTrue's error shape. auth-js reads `code` when the response carries X-Supabase-Api-Version
// (always sent here) and `error_code` otherwise; it shows `msg`, falling back to `message`. Sending
// all four keeps every client version on the same code and text.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
export const API_VERSION = '2024-01-01';

export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    /** Extra top-level keys of the body, e.g. weak_password. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function errorResponse(c: Context, err: AuthError): Response {
  c.header(API_VERSION_HEADER, API_VERSION);
  return c.json({ code: err.code, error_code: err.code, msg: err.message, message: err.message, ...err.extra }, err.status);
}

export const badRequest = (code: string, msg: string) => new AuthError(400, code, msg);
export const validationFailed = (msg: string) => new AuthError(400, 'validation_failed', msg);
export const unprocessable = (code: string, msg: string) => new AuthError(422, code, msg);
export const forbidden = (code: string, msg: string) => new AuthError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthError(404, code, msg);

export const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials');
export const otpExpired = () => forbidden('otp_expired', 'Email link is invalid or has expired');
export const userNotFound = () => notFound('user_not_found', 'User not found');
export const emailExists = () => unprocessable('email_exists', 'A user with this email address has already been registered');

export const weakPassword = (min: number) =>
  new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`, {
    weak_password: { reasons: ['length'] },
  });

export function tooManyRequests(code: 'over_request_rate_limit' | 'over_email_send_rate_limit'): AuthError {
  return new AuthError(
    429,
    code,
    code === 'over_email_send_rate_limit' ? 'Email rate limit exceeded' : 'Request rate limit reached',
  );
}

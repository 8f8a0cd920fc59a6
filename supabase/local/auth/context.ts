// What every route module receives: the stack's dependencies and this service's rate limits.
import type { Context } from 'hono';
import type { AuthDeps } from './deps.ts';
import { clientIp, type RateLimits } from './rate-limit.ts';
import type { ClientMeta } from './sessions.ts';

export interface Services {
  deps: AuthDeps;
  limits: RateLimits;
}

export function clientMeta(c: Context, deps: AuthDeps): ClientMeta {
  return { ip: clientIp(c, deps.config.trustForwardedFor), userAgent: c.req.header('user-agent') };
}

/** Mail is recorded synchronously by the mailer; SMTP delivery is not awaited so that whether an
 * address has an account never shows in response time (the mailer logs delivery failures). */
export function sendMailInBackground(deps: AuthDeps, mail: { to: string; subject: string; text: string }): void {
  void deps.mailer.send(mail).catch(() => undefined);
}

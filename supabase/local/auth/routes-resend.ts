// POST /resend {email, type: signup | email_change}: mails a fresh link for a confirmation that is
// still pending (the new one voids the old). Always 200 {}: whether the address has an account, or
// anything pending, never shows in the answer.
import type { Hono } from 'hono';
import { readBody, str } from './body.ts';
import { clientMeta, sendMailInBackground, type Services } from './context.ts';
import { normalizeEmail } from './credentials.ts';
import { withTx } from './db.ts';
import { validationFailed } from './errors.ts';
import { renderMail } from './mail-templates.ts';
import { issueLink } from './one-time-tokens.ts';
import { readPkce } from './pkce.ts';
import { redirectFor } from './redirect.ts';
import { findUserByEmail } from './users.ts';

export function resendRoutes(app: Hono, { deps, limits }: Services): void {
  app.post('/resend', async (c) => {
    const body = await readBody(c);
    limits.ip('otp', clientMeta(c, deps).ip);
    const type = str(body, 'type');
    if (type !== 'signup' && type !== 'email_change') throw validationFailed('Missing one of these types: signup, email_change');
    const email = normalizeEmail(str(body, 'email'));
    limits.email('otp', email);
    const pkce = readPkce(body);
    const redirectTo = redirectFor(deps, c.req.query('redirect_to'));
    const user = await findUserByEmail(deps.pool, email);
    const to = type === 'signup' ? (user && !user.email_confirmed_at ? email : undefined) : user?.email_change || undefined;
    if (user && to) {
      const link = await withTx(deps.pool, (db) =>
        issueLink(deps, db, { userId: user.id, type, relatesTo: to, redirectTo, pkce }),
      );
      sendMailInBackground(deps, { to, ...renderMail(type, link.actionLink, link.code) });
    }
    return c.json({});
  });
}

// Admin links (service_role only): POST /admin/generate_link returns a link without mailing it (for
// server code that sends its own mail); POST /invite creates the user and mails an invitation.
import type { Hono } from 'hono';
import { obj, readBody, str, type Json } from './body.ts';
import { sendMailInBackground, type Services } from './context.ts';
import { checkPassword, hashPassword, normalizeEmail } from './credentials.ts';
import { withTxNewEmail, type Db } from './db.ts';
import { emailExists, notFound, validationFailed } from './errors.ts';
import { renderMail, renderWelcomeMail } from './mail-templates.ts';
import { issueLink, type LinkType } from './one-time-tokens.ts';
import { redirectFor } from './redirect.ts';
import { findUserByEmail, insertUser, userJson, type UserRow } from './users.ts';

const GENERATE_TYPES = new Set<LinkType>(['signup', 'invite', 'magiclink', 'recovery']);

async function userForLink(db: Db, type: LinkType, email: string, body: Json, passwordHash: string | undefined): Promise<UserRow> {
  const existing = await findUserByEmail(db, email);
  const data = obj(body, 'data') ?? {};
  if (type === 'magiclink' || type === 'recovery') {
    if (!existing) throw notFound('user_not_found', 'User with this email not found');
    return existing;
  }
  if (type === 'invite') {
    if (existing?.email_confirmed_at) throw emailExists();
    return existing ?? insertUser(db, { email, passwordHash: null, userMeta: data, confirmed: false, invited: true });
  }
  if (existing) throw emailExists();
  return insertUser(db, { email, passwordHash: passwordHash ?? null, userMeta: data, confirmed: false });
}

export function adminLinkRoutes(app: Hono, { deps }: Services): void {
  app.post('/admin/generate_link', async (c) => {
    const body = await readBody(c);
    const type = str(body, 'type') as LinkType | undefined;
    if (!type || !GENERATE_TYPES.has(type)) throw validationFailed('Invalid or unsupported link type');
    const email = normalizeEmail(str(body, 'email'));
    const password = str(body, 'password');
    if (type === 'signup' && password === undefined) throw validationFailed('Password is required for signup links');
    const passwordHash = password === undefined ? undefined : await hashPassword(checkPassword(password), deps.config.passwordHashCost);
    const redirectTo = redirectFor(deps, c.req.query('redirect_to') ?? str(body, 'redirect_to') ?? str(body, 'redirectTo'));
    const result = await withTxNewEmail(deps.pool, async (db) => {
      const user = await userForLink(db, type, email, body, passwordHash);
      const link = await issueLink(deps, db, { userId: user.id, type, relatesTo: email, redirectTo, pkce: undefined });
      const fresh = (await findUserByEmail(db, email)) ?? user;
      return { user: await userJson(db, fresh), link };
    });
    return c.json({
      ...result.user,
      action_link: result.link.actionLink,
      email_otp: result.link.code,
      hashed_token: result.link.token,
      verification_type: type,
      redirect_to: result.link.redirectTo,
    });
  });

  app.post('/invite', async (c) => {
    const body = await readBody(c);
    const email = normalizeEmail(str(body, 'email'));
    const redirectTo = redirectFor(deps, c.req.query('redirect_to'));
    const result = await withTxNewEmail(deps.pool, async (db) => {
      const user = await userForLink(db, 'invite', email, body, undefined);
      const link = await issueLink(deps, db, { userId: user.id, type: 'invite', relatesTo: email, redirectTo, pkce: undefined });
      const fresh = (await findUserByEmail(db, email)) ?? user;
      return { user: await userJson(db, fresh), link };
    });
    // auth-link's registrations ask for the welcome mail (mail-templates.ts renderWelcomeMail).
    const welcome = obj(body, 'data')?.['poradna_mail'] === 'welcome';
    const mail = welcome ? renderWelcomeMail(result.link.actionLink, result.link.code) : renderMail('invite', result.link.actionLink, result.link.code);
    sendMailInBackground(deps, { to: email, ...mail });
    return c.json(result.user);
  });
}

// POST /signup, as GoTrue's internal/api/signup.go with hosted Supabase's defaults:
// - DISABLE_SIGNUP=true refuses every call with 422 signup_disabled (the product registers through
//   the auth-link function and the admin API, which stay open).
// - Without MAILER_AUTOCONFIRM (the default, as on hosted projects) the user is created unconfirmed,
//   a confirmation link is mailed, and the answer is the user with no session; password sign-in
//   answers 400 email_not_confirmed until the link (or its code) is used. So nobody can hold a
//   working password for an address whose mailbox they do not control (pre-account takeover).
// - A repeated sign-up never changes the existing user ("we can't be sure of their claimed
//   identity"): an unconfirmed one gets a fresh confirmation mail, a confirmed one gets a fake user
//   (GoTrue's sanitizeUser) so the answer does not reveal that the address is registered.
// - With MAILER_AUTOCONFIRM=true (like `supabase start`) the user is confirmed at once and gets a
//   session; a repeated sign-up is then 422 user_already_exists.
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { obj, readBody, str, type Json } from './body.ts';
import { clientMeta, sendMailInBackground, type Services } from './context.ts';
import { checkPassword, hashPassword, normalizeEmail } from './credentials.ts';
import { isUniqueViolation, withTx } from './db.ts';
import { unprocessable, validationFailed } from './errors.ts';
import { renderMail } from './mail-templates.ts';
import { issueLink, type IssuedLink } from './one-time-tokens.ts';
import { readPkce } from './pkce.ts';
import { redirectFor } from './redirect.ts';
import { startSession, type SessionJson } from './sessions.ts';
import { findUserByEmail, insertUser, userJson, type UserJson } from './users.ts';

const alreadyExists = () => unprocessable('user_already_exists', 'User already registered');

/** GoTrue's sanitizeUser: what a repeated sign-up of a confirmed address answers. */
function fakeUser(email: string, data: Json): UserJson {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export function signupRoutes(app: Hono, { deps, limits }: Services): void {
  app.post('/signup', async (c) => {
    // supabase/auth internal/api/signup.go: checked before anything else.
    if (deps.config.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    const body = await readBody(c);
    const meta = clientMeta(c, deps);
    limits.ip('signup', meta.ip);
    if (body.phone !== undefined && body.email === undefined) throw validationFailed('Phone signups are disabled');
    const email = normalizeEmail(str(body, 'email'));
    limits.email('signup', email);
    const password = checkPassword(str(body, 'password'));
    const data = obj(body, 'data') ?? {};
    const pkce = readPkce(body);
    const autoconfirm = deps.config.mailerAutoconfirm;
    const redirectTo = redirectFor(deps, c.req.query('redirect_to'));
    const hash = await hashPassword(password, deps.config.passwordHashCost);
    type Outcome = { session: SessionJson } | { user: UserJson; link?: IssuedLink };
    let outcome: Outcome;
    try {
      outcome = await withTx(deps.pool, async (db): Promise<Outcome> => {
        const existing = await findUserByEmail(db, email);
        if (existing?.email_confirmed_at) {
          if (autoconfirm) throw alreadyExists();
          return { user: fakeUser(email, data) };
        }
        const user = existing ?? (await insertUser(db, { email, passwordHash: hash, userMeta: data, confirmed: autoconfirm }));
        if (autoconfirm) return { session: await startSession(deps, db, user, 'password', meta) };
        const link = await issueLink(deps, db, { userId: user.id, type: 'signup', relatesTo: email, redirectTo, pkce });
        const fresh = (await findUserByEmail(db, email)) ?? user;
        return { user: await userJson(db, fresh), link };
      });
    } catch (err) {
      // A concurrent first sign-up of the same address won the insert: the address exists now.
      if (!isUniqueViolation(err)) throw err;
      if (autoconfirm) throw alreadyExists();
      return c.json(fakeUser(email, data));
    }
    if ('session' in outcome) return c.json(outcome.session);
    if (outcome.link) sendMailInBackground(deps, { to: email, ...renderMail('signup', outcome.link.actionLink, outcome.link.code) });
    return c.json(outcome.user);
  });
}

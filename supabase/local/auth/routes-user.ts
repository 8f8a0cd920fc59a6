// The signed-in user's own endpoints: GET /user, PUT /user, GET /reauthenticate, POST /logout.
// Invariants (GoTrue internal/api/user.go and reauthenticate.go, with hosted Supabase's security
// options on):
// - A new e-mail takes effect only through the secure change (email-change.ts): links to both the
//   current and the new address.
// - A new password needs a recent sign-in (a session created within REAUTH_WINDOW_MS, as GoTrue's
//   SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION) or the nonce mailed by GET /reauthenticate.
//   A recovery or magic-link session is a fresh sign-in, so the reset-password screen needs no nonce.
//   A wrong nonce counts against it like any 6-digit code (one-time-tokens.ts).
import type { Hono } from 'hono';
import { obj, readBody, str } from './body.ts';
import { clientMeta, sendMailInBackground, type Services } from './context.ts';
import { checkPassword, hashPassword, normalizeEmail, passwordMatches } from './credentials.ts';
import { withTx } from './db.ts';
import { requestEmailChange, type Mail } from './email-change.ts';
import { badRequest, emailExists, unprocessable, validationFailed } from './errors.ts';
import { requireUser } from './guard.ts';
import { renderMail } from './mail-templates.ts';
import { issueLink, recordWrongCode, redeemCode } from './one-time-tokens.ts';
import { readPkce } from './pkce.ts';
import { redirectFor } from './redirect.ts';
import { endSessions, type LogoutScope } from './sessions.ts';
import { emailTakenByOther, findUserById, mergeMetadata, userJson } from './users.ts';

const SCOPES = new Set<LogoutScope>(['global', 'local', 'others']);

/** GoTrue: "we require reauthentication if the user hasn't signed in recently in the current session". */
export const REAUTH_WINDOW_MS = 24 * 60 * 60 * 1000;

const invalidNonce = () => unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid');

export function userRoutes(app: Hono, { deps, limits }: Services): void {
  app.get('/user', async (c) => {
    const { user } = await requireUser(deps, c.req.header('authorization'));
    return c.json(await userJson(deps.pool, user));
  });

  app.put('/user', async (c) => {
    const { user, session } = await requireUser(deps, c.req.header('authorization'));
    const body = await readBody(c);
    const password = str(body, 'password');
    const nonce = str(body, 'nonce');
    const data = obj(body, 'data');
    const rawEmail = str(body, 'email');
    const newEmail = rawEmail === undefined ? undefined : normalizeEmail(rawEmail);
    const pkce = readPkce(body);
    const recent = Date.now() - session.created_at.getTime() < REAUTH_WINDOW_MS;
    if (password !== undefined) {
      checkPassword(password);
      if (!recent && !nonce) throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
      if (await passwordMatches(password, user.encrypted_password, deps.config.passwordHashCost)) {
        throw unprocessable('same_password', 'New password should be different from the old password.');
      }
    }
    const hash = password === undefined ? undefined : await hashPassword(password, deps.config.passwordHashCost);
    let mails: Mail[] = [];
    let wrongNonce = false;
    const updated = await withTx(deps.pool, async (db) => {
      if (hash !== undefined) {
        if (!recent) {
          const spent = await redeemCode(db, user.id, nonce!.trim(), ['reauthentication']);
          if (!spent) {
            wrongNonce = true;
            return undefined;
          }
        }
        await db.query('update auth.users set encrypted_password = $2, updated_at = now() where id = $1', [user.id, hash]);
        // As GoTrue: a new password signs out every other session of the user.
        await endSessions(db, user.id, session.id, 'others');
      }
      if (data !== undefined) {
        await db.query('update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1', [
          user.id,
          JSON.stringify(mergeMetadata(user.raw_user_meta_data, data)),
        ]);
      }
      if (newEmail !== undefined && newEmail !== user.email?.toLowerCase()) {
        if (await emailTakenByOther(db, newEmail, user.id)) {
          throw emailExists();
        }
        limits.email('otp', newEmail);
        mails = await requestEmailChange(deps, db, user, newEmail, redirectFor(deps, c.req.query('redirect_to')), pkce);
      }
      return findUserById(db, user.id);
    });
    if (wrongNonce) {
      await recordWrongCode(deps.pool, user.id, ['reauthentication']);
      throw invalidNonce();
    }
    for (const mail of mails) sendMailInBackground(deps, mail);
    return c.json(await userJson(deps.pool, updated ?? user));
  });

  // auth-js reauthenticate(): mails a 6-digit nonce to the confirmed address.
  app.get('/reauthenticate', async (c) => {
    const { user } = await requireUser(deps, c.req.header('authorization'));
    limits.ip('otp', clientMeta(c, deps).ip);
    if (!user.email) throw validationFailed('Reauthentication requires the user to have an email or a phone number');
    if (!user.email_confirmed_at) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
    limits.email('otp', user.email);
    const email = user.email;
    const link = await withTx(deps.pool, (db) =>
      issueLink(deps, db, { userId: user.id, type: 'reauthentication', relatesTo: email, redirectTo: redirectFor(deps, undefined), pkce: undefined }),
    );
    sendMailInBackground(deps, { to: email, ...renderMail('reauthentication', '', link.code) });
    return c.json({});
  });

  app.post('/logout', async (c) => {
    const scope = (c.req.query('scope') ?? 'global') as LogoutScope;
    if (!SCOPES.has(scope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
    const { user, session } = await requireUser(deps, c.req.header('authorization'));
    await endSessions(deps.pool, user.id, session.id, scope);
    return c.body(null, 204);
  });
}


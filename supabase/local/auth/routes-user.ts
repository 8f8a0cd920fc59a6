// The signed-in user's own endpoints: GET /user, PUT /user, POST /logout.
import type { Hono } from 'hono';
import { obj, readBody, str } from './body.ts';
import { sendMailInBackground, type Services } from './context.ts';
import { checkPassword, hashPassword, normalizeEmail, passwordMatches } from './credentials.ts';
import { withTx } from './db.ts';
import { unprocessable, validationFailed } from './errors.ts';
import { requireUser } from './guard.ts';
import { renderMail } from './mail-templates.ts';
import { issueLink, type IssuedLink } from './one-time-tokens.ts';
import { readPkce } from './pkce.ts';
import { safeRedirect } from './redirect.ts';
import { endSessions, type LogoutScope } from './sessions.ts';
import { emailTakenByOther, findUserById, mergeMetadata, userJson } from './users.ts';

const SCOPES = new Set<LogoutScope>(['global', 'local', 'others']);

export function userRoutes(app: Hono, { deps }: Services): void {
  app.get('/user', async (c) => {
    const { user } = await requireUser(deps, c.req.header('authorization'));
    return c.json(await userJson(deps.pool, user));
  });

  app.put('/user', async (c) => {
    const { user, session } = await requireUser(deps, c.req.header('authorization'));
    const body = await readBody(c);
    const password = str(body, 'password');
    const data = obj(body, 'data');
    const rawEmail = str(body, 'email');
    const newEmail = rawEmail === undefined ? undefined : normalizeEmail(rawEmail);
    const pkce = readPkce(body);
    if (password !== undefined) {
      checkPassword(password);
      if (await passwordMatches(password, user.encrypted_password)) {
        throw unprocessable('same_password', 'New password should be different from the old password.');
      }
    }
    const hash = password === undefined ? undefined : await hashPassword(password);
    let emailLink: IssuedLink | undefined;
    const updated = await withTx(deps.pool, async (db) => {
      if (hash !== undefined) {
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
          throw unprocessable('email_exists', 'A user with this email address has already been registered');
        }
        // The address changes only when the link mailed to it is opened (verify.ts).
        await db.query('update auth.users set email_change = $2, updated_at = now() where id = $1', [user.id, newEmail]);
        emailLink = await issueLink(deps, db, {
          userId: user.id,
          type: 'email_change',
          relatesTo: newEmail,
          redirectTo: safeRedirect(deps.publicUrl(), c.req.query('redirect_to')),
          pkce,
        });
      }
      return findUserById(db, user.id);
    });
    if (emailLink && newEmail) {
      sendMailInBackground(deps, { to: newEmail, ...renderMail('email_change', emailLink.actionLink, emailLink.code) });
    }
    return c.json(await userJson(deps.pool, updated ?? user));
  });

  app.post('/logout', async (c) => {
    const scope = (c.req.query('scope') ?? 'global') as LogoutScope;
    if (!SCOPES.has(scope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
    const { user, session } = await requireUser(deps, c.req.header('authorization'));
    await endSessions(deps.pool, user.id, session.id, scope);
    return c.body(null, 204);
  });
}

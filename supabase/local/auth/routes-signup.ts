// POST /signup. The local stack runs with mailer autoconfirm on (as `supabase start` does), so a
// sign-up confirms the address at once and answers with a session instead of mailing a link.
import type { Hono } from 'hono';
import { obj, readBody, str } from './body.ts';
import { clientMeta, type Services } from './context.ts';
import { checkPassword, hashPassword, normalizeEmail } from './credentials.ts';
import { isUniqueViolation, withTx } from './db.ts';
import { unprocessable, validationFailed } from './errors.ts';
import { readPkce } from './pkce.ts';
import { startSession } from './sessions.ts';
import { findUserByEmail, insertUser } from './users.ts';

const alreadyExists = () => unprocessable('user_already_exists', 'User already registered');

export function signupRoutes(app: Hono, { deps, limits }: Services): void {
  app.post('/signup', async (c) => {
    const body = await readBody(c);
    const meta = clientMeta(c, deps);
    limits.ip('signup', meta.ip);
    if (body.phone !== undefined && body.email === undefined) throw validationFailed('Phone signups are disabled');
    const email = normalizeEmail(str(body, 'email'));
    limits.email('signup', email);
    const password = checkPassword(str(body, 'password'));
    const data = obj(body, 'data') ?? {};
    // Validated for the error a client would get from GoTrue; with autoconfirm no link is sent.
    readPkce(body);
    const hash = await hashPassword(password);
    try {
      const session = await withTx(deps.pool, async (db) => {
        if (await findUserByEmail(db, email)) throw alreadyExists();
        const user = await insertUser(db, { email, passwordHash: hash, userMeta: data, confirmed: true });
        return startSession(deps, db, user, 'password', meta);
      });
      return c.json(session);
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyExists();
      throw err;
    }
  });
}

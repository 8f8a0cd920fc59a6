// Endpoints that mail a link: POST /otp (magic link) and POST /recover (password reset).
// Both answer 200 {} once the mail is recorded. /recover answers the same, in about the same time,
// for an unknown address (anti-enumeration); /otp follows GoTrue and refuses an unknown address
// only when the client asked not to create users (422 otp_disabled).
import type { Hono } from 'hono';
import { bool, obj, readBody, str } from './body.ts';
import { clientMeta, sendMailInBackground, type Services } from './context.ts';
import { normalizeEmail } from './credentials.ts';
import { isUniqueViolation, withTx } from './db.ts';
import { unprocessable, validationFailed } from './errors.ts';
import { renderMail } from './mail-templates.ts';
import { issueLink, OTP_TTL_SEC } from './one-time-tokens.ts';
import { readPkce } from './pkce.ts';
import { redirectFor } from './redirect.ts';
import { randomOtp, randomToken, sha256Hex } from './tokens.ts';
import { findUserByEmail, insertUser } from './users.ts';

/** Both answers of /recover take at least this long, whatever work the branch did. */
const RECOVER_MIN_MS = 100;

export function mailRoutes(app: Hono, { deps, limits }: Services): void {
  app.post('/otp', async (c) => {
    const body = await readBody(c);
    limits.ip('otp', clientMeta(c, deps).ip);
    if (body.phone !== undefined && body.email === undefined) throw validationFailed('Phone logins are disabled');
    const email = normalizeEmail(str(body, 'email'));
    limits.email('otp', email);
    const pkce = readPkce(body);
    const createUser = bool(body, 'create_user') ?? true;
    const data = obj(body, 'data') ?? {};
    const redirectTo = redirectFor(deps, c.req.query('redirect_to'));
    const issue = () =>
      withTx(deps.pool, async (db) => {
        let user = await findUserByEmail(db, email);
        if (!user) {
          if (!createUser) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
          // Unconfirmed until the link is opened: the mailbox owner proves the address.
          user = await insertUser(db, { email, passwordHash: null, userMeta: data, confirmed: false });
        }
        return issueLink(deps, db, { userId: user.id, type: 'magiclink', relatesTo: email, redirectTo, pkce });
      });
    let link;
    try {
      link = await issue();
    } catch (err) {
      // Two first requests for one new address raced on the unique index; the user exists now.
      if (!isUniqueViolation(err)) throw err;
      link = await issue();
    }
    sendMailInBackground(deps, { to: email, ...renderMail('magiclink', link.actionLink, link.code) });
    return c.json({});
  });

  app.post('/recover', async (c) => {
    const body = await readBody(c);
    limits.ip('recover', clientMeta(c, deps).ip);
    const email = normalizeEmail(str(body, 'email'));
    limits.email('recover', email);
    const pkce = readPkce(body);
    const redirectTo = redirectFor(deps, c.req.query('redirect_to'));
    const started = Date.now();
    const user = await findUserByEmail(deps.pool, email);
    if (user) {
      const link = await withTx(deps.pool, (db) =>
        issueLink(deps, db, { userId: user.id, type: 'recovery', relatesTo: email, redirectTo, pkce }),
      );
      sendMailInBackground(deps, { to: email, ...renderMail('recovery', link.actionLink, link.code) });
    } else {
      // The same kind of work as the branch above (token generation, hashing, a transaction with a
      // query), so that response time does not reveal that the address has no account.
      const decoy = sha256Hex(randomToken(32) + randomOtp());
      await withTx(deps.pool, async (db) => {
        await db.query(`delete from auth.one_time_tokens where created_at < now() - make_interval(secs => $1)`, [OTP_TTL_SEC]);
        await db.query('delete from auth.one_time_tokens where token_hash = $1', [decoy]);
        await db.query('select 1 from auth.one_time_tokens where token_hash = $1', [decoy]);
        await db.query('update auth.users set recovery_sent_at = now() where false');
      });
      renderMail('recovery', decoy, randomOtp());
    }
    // Commits that write flush WAL and the decoy writes nothing; a floor on the response time
    // hides that last difference.
    const wait = RECOVER_MIN_MS - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return c.json({});
  });
}

// POST /verify (verifyOtp: token_hash, or e-mail + 6-digit code) answers with a session.
// GET /verify is the mailed link: it answers 303 to the allowed redirect_to (redirect.ts) with the
// session in the fragment, or with ?code= when the mail was requested with a PKCE challenge;
// failures go to the same place as #error=…&error_code=…&error_description=…, never as a JSON page.
// Invariants: a PKCE token is spent only by its link (POST {token_hash} cannot redeem it); a wrong
// 6-digit code is counted against the user's live codes, which die after MAX_CODE_ATTEMPTS; the
// first of two e-mail-change confirmations answers GoTrue's "Confirmation link accepted" message and
// signs nobody in.
import type { Context, Hono } from 'hono';
import { readBody, str } from './body.ts';
import { clientMeta, sendMailInBackground, type Services } from './context.ts';
import { normalizeEmail } from './credentials.ts';
import { withTx } from './db.ts';
import { SINGLE_CONFIRMATION_ACCEPTED } from './email-change.ts';
import { AuthError, otpExpired, validationFailed } from './errors.ts';
import { renderEmailChangedNotice } from './mail-templates.ts';
import { recordWrongCode, redeemCode, redeemLinkToken, VERIFY_TYPES, type LinkType } from './one-time-tokens.ts';
import { createFlowState } from './pkce.ts';
import { redirectFor } from './redirect.ts';
import { startSession } from './sessions.ts';
import { findUserByEmail } from './users.ts';
import { amrFor, applyRedeemed, type Applied } from './verify.ts';
import type { AuthDeps } from './deps.ts';

function typesFor(type: string | undefined): LinkType[] {
  // hasOwn: a type such as "constructor" must not reach Object.prototype.
  const types = type && Object.hasOwn(VERIFY_TYPES, type) ? VERIFY_TYPES[type] : undefined;
  if (!types) throw validationFailed('Verify requires a verification type');
  return types;
}

function notifyEmailChanged(deps: AuthDeps, applied: Applied): void {
  if (applied.kind === 'user' && applied.oldEmail && applied.user.email) {
    sendMailInBackground(deps, { to: applied.oldEmail, ...renderEmailChangedNotice(applied.user.email) });
  }
}

export function verifyRoutes(app: Hono, { deps, limits }: Services): void {
  app.post('/verify', async (c) => {
    const body = await readBody(c);
    const meta = clientMeta(c, deps);
    limits.ip('verify', meta.ip);
    const types = typesFor(str(body, 'type'));
    const tokenHash = str(body, 'token_hash');
    const code = str(body, 'token');
    const rawEmail = str(body, 'email');
    let email: string | undefined;
    if (!tokenHash) {
      if (!code || !rawEmail) throw validationFailed('Verify requires either a token or a token hash');
      email = normalizeEmail(rawEmail);
      limits.email('verify', email);
    }
    let wrongCodeFor: string | undefined;
    const outcome = await withTx(deps.pool, async (db) => {
      let redeemed;
      if (tokenHash) redeemed = await redeemLinkToken(db, tokenHash, types, { allowPkce: false });
      else {
        const user = await findUserByEmail(db, email!);
        redeemed = user ? await redeemCode(db, user.id, code!.trim(), types) : undefined;
        if (user && !redeemed) wrongCodeFor = user.id;
      }
      if (!redeemed) return undefined;
      const applied = await applyRedeemed(db, redeemed);
      if (applied.kind === 'pending') return { applied };
      return { applied, session: await startSession(deps, db, applied.user, amrFor(redeemed, !tokenHash), meta) };
    });
    if (!outcome) {
      // Counted in its own statement: the refused request has nothing else to commit.
      if (wrongCodeFor) await recordWrongCode(deps.pool, wrongCodeFor, types);
      throw otpExpired();
    }
    notifyEmailChanged(deps, outcome.applied);
    if (!outcome.session) return c.json({ msg: SINGLE_CONFIRMATION_ACCEPTED, code: 200 });
    return c.json(outcome.session);
  });

  app.get('/verify', async (c) => {
    const type = c.req.query('type');
    const target = new URL(redirectFor(deps, c.req.query('redirect_to')));
    try {
      limits.ip('verify', clientMeta(c, deps).ip);
      const types = typesFor(type);
      const token = c.req.query('token');
      if (!token) throw otpExpired();
      const outcome = await withTx(deps.pool, async (db) => {
        const redeemed = await redeemLinkToken(db, token, types, { allowPkce: true });
        if (!redeemed) throw otpExpired();
        const applied = await applyRedeemed(db, redeemed);
        if (applied.kind === 'pending') return { applied };
        const method = amrFor(redeemed, false);
        if (redeemed.code_challenge && redeemed.code_challenge_method) {
          const code = await createFlowState(db, {
            userId: applied.user.id,
            challenge: redeemed.code_challenge,
            method: redeemed.code_challenge_method,
            authMethod: method,
          });
          return { applied, code };
        }
        return { applied, session: await startSession(deps, db, applied.user, method, clientMeta(c, deps)) };
      });
      notifyEmailChanged(deps, outcome.applied);
      if ('code' in outcome) {
        target.searchParams.set('code', outcome.code);
        return c.redirect(target.toString(), 303);
      }
      if (!('session' in outcome)) {
        // GoTrue: the first of two e-mail-change links redirects with a message and no session.
        target.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION_ACCEPTED }).toString();
        return c.redirect(target.toString(), 303);
      }
      const s = outcome.session;
      target.hash = new URLSearchParams({
        access_token: s.access_token,
        expires_at: String(s.expires_at),
        expires_in: String(s.expires_in),
        refresh_token: s.refresh_token,
        token_type: 'bearer',
        type: type ?? 'magiclink',
      }).toString();
      return c.redirect(target.toString(), 303);
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      return redirectWithError(c, target, err);
    }
  });
}

function redirectWithError(c: Context, target: URL, err: AuthError): Response {
  target.hash = new URLSearchParams({
    error: err.status === 403 ? 'access_denied' : err.status === 429 ? 'too_many_requests' : 'invalid_request',
    error_code: err.code,
    error_description: err.message,
  }).toString();
  return c.redirect(target.toString(), 303);
}

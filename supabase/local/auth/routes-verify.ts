// POST /verify (verifyOtp: token_hash, or e-mail + 6-digit code) answers with a session.
// GET /verify is the mailed link: it answers 303 to the (same-origin) redirect_to with the session
// in the fragment, or with ?code= when the mail was requested with a PKCE challenge; failures go to
// the same place as #error=…&error_code=…&error_description=…, never as a JSON page.
import type { Context, Hono } from 'hono';
import { readBody, str } from './body.ts';
import { clientMeta, type Services } from './context.ts';
import { normalizeEmail } from './credentials.ts';
import { withTx } from './db.ts';
import { AuthError, otpExpired, validationFailed } from './errors.ts';
import { redeemCode, redeemLinkToken, VERIFY_TYPES, type LinkType } from './one-time-tokens.ts';
import { createFlowState } from './pkce.ts';
import { safeRedirect } from './redirect.ts';
import { startSession } from './sessions.ts';
import { findUserByEmail } from './users.ts';
import { amrFor, applyRedeemed } from './verify.ts';

function typesFor(type: string | undefined): LinkType[] {
  // hasOwn: a type such as "constructor" must not reach Object.prototype.
  const types = type && Object.hasOwn(VERIFY_TYPES, type) ? VERIFY_TYPES[type] : undefined;
  if (!types) throw validationFailed('Verify requires a verification type');
  return types;
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
      // The 6-digit code is guessable in principle; per-address limits make guessing hopeless.
      limits.email('verify', email);
    }
    const session = await withTx(deps.pool, async (db) => {
      let redeemed;
      if (tokenHash) redeemed = await redeemLinkToken(db, tokenHash, types);
      else {
        const user = await findUserByEmail(db, email!);
        redeemed = user ? await redeemCode(db, user.id, code!.trim(), types) : undefined;
      }
      if (!redeemed) throw otpExpired();
      const user = await applyRedeemed(db, redeemed);
      return startSession(deps, db, user, amrFor(redeemed, !tokenHash), meta);
    });
    return c.json(session);
  });

  app.get('/verify', async (c) => {
    const type = c.req.query('type');
    const target = new URL(safeRedirect(deps.publicUrl(), c.req.query('redirect_to')));
    try {
      limits.ip('verify', clientMeta(c, deps).ip);
      const types = typesFor(type);
      const token = c.req.query('token');
      if (!token) throw otpExpired();
      const outcome = await withTx(deps.pool, async (db) => {
        const redeemed = await redeemLinkToken(db, token, types);
        if (!redeemed) throw otpExpired();
        const user = await applyRedeemed(db, redeemed);
        const method = amrFor(redeemed, false);
        if (redeemed.code_challenge && redeemed.code_challenge_method) {
          const code = await createFlowState(db, {
            userId: user.id,
            challenge: redeemed.code_challenge,
            method: redeemed.code_challenge_method,
            authMethod: method,
          });
          return { code };
        }
        return { session: await startSession(deps, db, user, method, clientMeta(c, deps)) };
      });
      if ('code' in outcome) {
        target.searchParams.set('code', outcome.code);
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

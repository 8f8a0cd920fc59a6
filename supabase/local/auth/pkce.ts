// PKCE (RFC 7636) for mailed links: the request that sends the mail carries a code_challenge; the
// link then redirects with ?code=<auth_code> instead of tokens, and only the holder of the code
// verifier can exchange that code for a session (grant_type=pkce). An intercepted link or code is
// useless without the verifier, which never leaves the browser that asked for the mail.
import type { AuthDeps } from './deps.ts';
import { str, type Json } from './body.ts';
import { withTx, type Db } from './db.ts';
import { AuthError, badRequest, notFound, validationFailed } from './errors.ts';
import type { Pkce } from './one-time-tokens.ts';
import { startSession, type AmrMethod, type ClientMeta, type SessionJson } from './sessions.ts';
import { parseChallengeMethod, randomToken, verifierMatches } from './tokens.ts';
import { findUserById, isBanned } from './users.ts';

/** GoTrue's flow-state lifetime: the code must be exchanged within 5 minutes of the click. */
const FLOW_STATE_TTL_MS = 5 * 60 * 1000;

/** The challenge a request carries, or undefined for the implicit flow. Both fields or neither. */
export function readPkce(body: Json): Pkce | undefined {
  const challenge = str(body, 'code_challenge');
  const rawMethod = str(body, 'code_challenge_method');
  if (!challenge && !rawMethod) return undefined;
  if (!challenge || !rawMethod) throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  const method = parseChallengeMethod(rawMethod);
  if (!method) throw validationFailed(`Code challenge method not supported: ${rawMethod}`);
  if (challenge.length < 43 || challenge.length > 128) {
    throw validationFailed('code challenge has to be between 43 and 128 characters');
  }
  return { challenge, method };
}

export async function createFlowState(
  db: Db,
  args: { userId: string; challenge: string; method: string; authMethod: AmrMethod },
): Promise<string> {
  const authCode = randomToken(24);
  await db.query(`delete from auth.flow_state where created_at < now() - interval '1 day'`);
  await db.query(
    `insert into auth.flow_state (user_id, auth_code, code_challenge, code_challenge_method, authentication_method, auth_code_issued_at)
     values ($1, $2, $3, $4, $5, now())`,
    [args.userId, authCode, args.challenge, args.method, args.authMethod],
  );
  return authCode;
}

interface FlowRow {
  id: string;
  user_id: string | null;
  code_challenge: string;
  code_challenge_method: string;
  authentication_method: string;
  auth_code_issued_at: Date | null;
}

const AMR_METHODS = new Set<AmrMethod>(['password', 'otp', 'magiclink', 'recovery']);

export async function pkceGrant(deps: AuthDeps, body: Json, meta: ClientMeta): Promise<SessionJson> {
  const authCode = str(body, 'auth_code');
  const verifier = str(body, 'code_verifier');
  if (!authCode || !verifier) throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  const outcome = await withTx(deps.pool, async (db): Promise<SessionJson | AuthError> => {
    const r = await db.query<FlowRow>(
      `select id, user_id, code_challenge, code_challenge_method, authentication_method, auth_code_issued_at
       from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const flow = r.rows[0];
    if (!flow || !flow.user_id) return notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    const issuedAt = flow.auth_code_issued_at?.getTime() ?? 0;
    if (Date.now() - issuedAt > FLOW_STATE_TTL_MS) {
      await db.query('delete from auth.flow_state where id = $1', [flow.id]);
      return badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
    }
    if (!verifierMatches(verifier, flow.code_challenge, flow.code_challenge_method)) {
      return badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    // Single use: the code is gone before the session exists.
    await db.query('delete from auth.flow_state where id = $1', [flow.id]);
    const user = await findUserById(db, flow.user_id);
    if (!user) return notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    if (isBanned(user)) return badRequest('user_banned', 'User is banned');
    const method = AMR_METHODS.has(flow.authentication_method as AmrMethod)
      ? (flow.authentication_method as AmrMethod)
      : 'otp';
    return startSession(deps, db, user, method, meta);
  });
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

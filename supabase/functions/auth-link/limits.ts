// auth-link's admission and link target.
import type { Db } from '../_shared/clients.ts';
import { HttpError } from '../_shared/http.ts';
import type { FunctionEnv } from '../_shared/types.ts';

const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/**
 * The caller's address: the first X-Forwarded-For hop. Supabase's edge puts the client's IP there
 * (maintainer answer: github.com/orgs/supabase/discussions/7884); the local functions host replaces
 * whatever the client sent with the socket's address (supabase/local/gateway/functions-host.ts).
 * Should a platform append to a client-sent header instead, the first hop would be the client's own
 * claim; the per-e-mail limit holds either way.
 */
export function clientAddress(req: Request): string {
  return req.headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 100) || 'unknown';
}

/**
 * True if the call may go on (and is counted); false when the client or the e-mail is over its limit
 * (AUTH_LINK_RATE_LIMIT_CLIENT / _EMAIL per AUTH_LINK_RATE_LIMIT_WINDOW_S; defaults 10 / 3 per 600 s).
 */
export async function admit(admin: Db, req: Request, email: string, env: FunctionEnv): Promise<boolean> {
  const res = await admin.rpc('auth_link_take', {
    p_client: clientAddress(req),
    p_email: email,
    p_client_limit: positive(env.AUTH_LINK_RATE_LIMIT_CLIENT, 10),
    p_email_limit: positive(env.AUTH_LINK_RATE_LIMIT_EMAIL, 3),
    p_window_seconds: positive(env.AUTH_LINK_RATE_LIMIT_WINDOW_S, 600),
  });
  if (res.error) {
    console.error('auth-link: limit check failed', res.error.message);
    throw new HttpError(503, 'The service is not available right now; retry shortly');
  }
  // null: admitted; otherwise which limit refused ('client' or 'email').
  return (res.data as string | null) === null;
}

/**
 * Where the mailed link lands: the caller's redirectTo when it is on the site (SITE_URL), else the
 * site's own /auth/reset-password. A page opened on another name of the same server (127.0.0.1 for
 * localhost) would otherwise name an origin the auth service does not allow, and the link would fall
 * back to the site root instead of the set-password page (issue 21 item 11). Without SITE_URL (a hosted
 * project that did not set it) the caller's value goes on and the auth service's allow list decides.
 */
export function linkTarget(requested: string | null, env: FunctionEnv): string {
  const site = env.SITE_URL || undefined;
  const fallback = `${(site ?? env.SUPABASE_URL).replace(/\/+$/, '')}/auth/reset-password`;
  if (!requested) return fallback;
  if (!site) return requested;
  try {
    const url = new URL(requested);
    if (url.origin === new URL(site).origin && !url.username && !url.password) return url.href;
  } catch {
    /* not an absolute URL */
  }
  return fallback;
}

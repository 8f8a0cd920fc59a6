// The product's auth actions (user-area.md section 7), each answering with the Slovak error text to
// show, or null on success. supabase-js is loaded on first use (lazy-supabase.ts), so the auth pages
// paint without it.
import { sk } from '../text/sk.ts';
import { loadSupabase } from './lazy-supabase.ts';
import { consumeSignOutIntent, markSignOutIntended } from './sign-out-intent.ts';

export type ActionResult = { error: string | null };

const origin = () => window.location.origin;
export const callbackUrl = () => `${origin()}/auth/callback`;
export const resetPasswordUrl = () => `${origin()}/auth/reset-password`;

async function attempt(run: () => Promise<{ error: unknown }>, failure: string): Promise<ActionResult> {
  try {
    const { error } = await run();
    if (error) console.warn('auth:', error);
    return { error: error ? failure : null };
  } catch (err) {
    console.error('auth:', err);
    return { error: failure };
  }
}

export async function signIn(email: string, password: string): Promise<ActionResult> {
  try {
    const { supabase, isAuthApiError } = await loadSupabase();
    const { error } = await supabase.auth.signInWithPassword({ email, password });
    if (!error) return { error: null };
    if (
      isAuthApiError(error) &&
      (error.code === 'invalid_credentials' || /invalid login credentials/i.test(error.message))
    ) {
      return { error: sk.errors.invalidCredentials };
    }
    return { error: sk.errors.signInFailed };
  } catch (err) {
    console.error('auth:', err);
    return { error: sk.errors.generic };
  }
}

export const signInWithMagicLink = (email: string) =>
  attempt(
    async () =>
      (await loadSupabase()).supabase.auth.signInWithOtp({
        email,
        options: { emailRedirectTo: callbackUrl(), shouldCreateUser: true },
      }),
    sk.errors.magicLinkFailed,
  );

/** The 6-digit code of a magic-link, sign-up or welcome mail (GoTrue POST /verify, type 'email'). */
export async function signInWithCode(email: string, code: string): Promise<ActionResult> {
  try {
    const { supabase, isAuthApiError } = await loadSupabase();
    const { error } = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
    if (!error) return { error: null };
    console.warn('auth:', error);
    // GoTrue answers otp_expired for a wrong code as for an old one (no hint which).
    if (isAuthApiError(error) && (error.code === 'otp_expired' || error.status === 403))
      return { error: sk.errors.codeInvalid };
    if (isAuthApiError(error) && error.status === 429) return { error: sk.errors.codeTooMany };
    return { error: sk.errors.signInFailed };
  } catch (err) {
    console.error('auth:', err);
    return { error: sk.errors.generic };
  }
}

export const resetPassword = (email: string, failure: string = sk.errors.forgotFailed) =>
  attempt(
    async () =>
      (await loadSupabase()).supabase.auth.resetPasswordForEmail(email, { redirectTo: resetPasswordUrl() }),
    failure,
  );

/** GoTrue answers `same_password` (422) when the new password equals the current one: say so (issue 37). */
export async function updatePassword(password: string): Promise<ActionResult> {
  try {
    const { supabase, isAuthApiError } = await loadSupabase();
    const { error } = await supabase.auth.updateUser({ password });
    if (!error) return { error: null };
    console.warn('auth:', error);
    if (isAuthApiError(error) && error.code === 'same_password') return { error: sk.errors.samePassword };
    return { error: sk.errors.passwordChangeFailed };
  } catch (err) {
    console.error('auth:', err);
    return { error: sk.errors.passwordChangeFailed };
  }
}

export async function signOut(): Promise<ActionResult> {
  markSignOutIntended();
  const result = await attempt(
    async () => (await loadSupabase()).supabase.auth.signOut({ scope: 'global' }),
    sk.errors.signOutFailed,
  );
  // The session stayed, so no SIGNED_OUT will come to consume the mark.
  if (result.error) consumeSignOutIntent();
  return result;
}

/** Drops a session that is no longer valid from this browser only. */
export async function clearLocalSession(): Promise<void> {
  markSignOutIntended();
  try {
    await (await loadSupabase()).supabase.auth.signOut({ scope: 'local' });
  } catch (err) {
    console.warn('auth: local sign-out', err);
  }
}

/**
 * Registration by e-mail through the auth-link function. Anti-enumeration: the caller always shows
 * 'E-mail bol odoslaný'; this returns the server's message when it gave one.
 */
export async function registerByEmail(email: string): Promise<string | null> {
  try {
    const { appEnv } = await loadSupabase();
    const res = await fetch(`${appEnv.supabaseUrl}/functions/v1/auth-link`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        apikey: appEnv.anonKey,
        Authorization: `Bearer ${appEnv.anonKey}`,
      },
      body: JSON.stringify({ email, redirectTo: resetPasswordUrl() }),
    });
    const body: unknown = await res.json().catch(() => null);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
      return body.message;
  } catch (err) {
    console.warn('auth-link:', err);
  }
  return null;
}

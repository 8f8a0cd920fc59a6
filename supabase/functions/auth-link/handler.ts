// auth-link {email, redirectTo} (public): registration by e-mail. A new address gets a user with a
// random 8-character password (user-area.md section 1) and every address gets the set-password link by
// mail. Anti-enumeration: the reply is the same whether or not the address already had an account,
// both paths do the same mail work, and every answer to a valid address takes at least
// AUTH_LINK_MIN_MS: a new address also creates the user and its account (measured ~45 ms more), so
// only a floor above both paths' usual time hides which one ran (tests/server/enumeration-timing).
import { anonClient, serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { email as emailField, optionalString } from '../_shared/validate.ts';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
export const SENT_MESSAGE = 'E-mail bol odoslaný. Skontroluj si schránku a nastav si heslo.';
/** Every answer to a valid address takes at least this long, whichever path ran. */
export const AUTH_LINK_MIN_MS = 600;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function randomPassword(length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // Keep at least one digit so the password also satisfies the app's own rules.
  const chars = Array.from(bytes, (b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]!);
  chars[bytes[0]! % length] = String(2 + (bytes[1]! % 8));
  return chars.join('');
}

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const body = await readJsonObject(req);
    const email = emailField(body, 'email');
    const redirectTo = optionalString(body, 'redirectTo', 2000) ?? `${env.SUPABASE_URL}/auth/reset-password`;

    const started = Date.now();
    try {
      const admin = serviceClient(env);
      const created = await admin.auth.admin.createUser({ email, password: randomPassword(), email_confirm: true });
      if (created.error && created.error.status !== 422) {
        console.error('auth-link: createUser failed', created.error.message);
      }
      const sent = await anonClient(env).auth.resetPasswordForEmail(email, { redirectTo });
      if (sent.error?.status === 429) throw new HttpError(429, 'Príliš veľa pokusov. Skús to o chvíľu.');
      if (sent.error) console.error('auth-link: recover failed', sent.error.message);
      return json({ message: SENT_MESSAGE });
    } finally {
      // Also on errors: a failure that only one path can hit must not answer sooner either.
      const wait = AUTH_LINK_MIN_MS - (Date.now() - started);
      if (wait > 0) await sleep(wait);
    }
  })(req);

export default handler;

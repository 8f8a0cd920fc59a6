// auth-link {email, redirectTo} (public): registration by e-mail.
// - Limits first (issue 16 item 3): per client address and per e-mail, kept in the database
//   (auth_link_take) because Supabase may run every request in another isolate. A refused call answers
//   429 before anything is created or mailed. The client is the first X-Forwarded-For hop, which the
//   edge (or the local functions host) sets to the caller's address (limits.ts).
// - A new address (or one registered but never confirmed) gets the welcome / set-your-password mail
//   through GoTrue's invite (an admin endpoint: no per-IP limit shared by every caller of this
//   function, since all its calls come from the server's own address), then a random 8-character
//   password (user-area.md section 1), which also replaces any password someone else chose for an
//   unconfirmed address. The link confirms the address and opens /auth/reset-password.
// - An existing confirmed address gets the password-reset mail; its password is not changed.
// Anti-enumeration: the reply is the same on both paths, and every answer to a valid, admitted address
// takes at least AUTH_LINK_MIN_MS: the new-address path does more work (tests/server/enumeration-timing).
import { anonClient, serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { email as emailField, optionalString } from '../_shared/validate.ts';
import { admit, linkTarget } from './limits.ts';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
export const SENT_MESSAGE = 'E-mail bol odoslaný. Skontroluj si schránku a nastav si heslo.';
export const TOO_MANY_MESSAGE = 'Príliš veľa pokusov. Skús to o chvíľu.';
/** Every answer to a valid address takes at least this long, whichever path ran. */
export const AUTH_LINK_MIN_MS = 600;
/** user_metadata marker the invite mail template reads to send the welcome mail, not an invitation. */
export const WELCOME_MARKER = { poradna_mail: 'welcome' } as const;

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
    const redirectTo = linkTarget(optionalString(body, 'redirectTo', 2000), env);
    const admin = serviceClient(env);
    if (!(await admit(admin, req, email, env))) throw new HttpError(429, TOO_MANY_MESSAGE);

    const started = Date.now();
    try {
      const invited = await admin.auth.admin.inviteUserByEmail(email, { redirectTo, data: WELCOME_MARKER });
      if (invited.data.user) {
        const set = await admin.auth.admin.updateUserById(invited.data.user.id, { password: randomPassword() });
        if (set.error) console.error('auth-link: setting the random password failed', set.error.message);
      } else if (invited.error?.status === 422) {
        // Confirmed already: the owner gets the reset mail.
        const sent = await anonClient(env).auth.resetPasswordForEmail(email, { redirectTo });
        if (sent.error?.status === 429) throw new HttpError(429, TOO_MANY_MESSAGE);
        if (sent.error) console.error('auth-link: recover failed', sent.error.message);
      } else if (invited.error) {
        console.error('auth-link: invite failed', invited.error.message);
      }
      return json({ message: SENT_MESSAGE });
    } finally {
      // Also on errors: a failure that only one path can hit must not answer sooner either.
      const wait = AUTH_LINK_MIN_MS - (Date.now() - started);
      if (wait > 0) await sleep(wait);
    }
  })(req);

export default handler;

// GoTrue's e-mail validation, in one dependency-free module shared by the local auth service and the
// edge functions (`_shared/validate.ts` `email()`): both must refuse exactly what GoTrue refuses, or an
// address could exist locally that hosted Supabase would never accept.
// Source: supabase/auth internal/api/mail.go `validateEmail` — empty → "An email address is required",
// over 255 bytes → "An email address is too long", else badoux/checkmail ValidateFormat (its regexp
// below; failure text "invalid format") → "Unable to validate email address: invalid format"; every
// refusal is 400 validation_failed; the accepted address is lowercased. GoTrue does not trim.

// badoux/checkmail's emailRegexp (go.mod pins d0a759655d62): ASCII local part of RFC 5322 atext and
// dots, a domain of LDH labels (1–63 characters, no leading/trailing hyphen). No TLD is required.
const CHECKMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export type EmailCheck = { ok: true; email: string } | { ok: false; message: string };

/** GoTrue's verdict on an address: the lowercased address, or the exact message of its 400. */
export function checkEmailFormat(raw: string | undefined | null): EmailCheck {
  const email = raw ?? '';
  if (email === '') return { ok: false, message: 'An email address is required' };
  // Go's len() counts bytes.
  if (new TextEncoder().encode(email).length > 255) return { ok: false, message: 'An email address is too long' };
  if (!CHECKMAIL_RE.test(email)) return { ok: false, message: 'Unable to validate email address: invalid format' };
  return { ok: true, email: email.toLowerCase() };
}

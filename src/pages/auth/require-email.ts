import { toastError } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';

/** Magic link and resend need an e-mail first: otherwise the toast 'Chýba e-mail'. */
export function requireEmail(email: string): string | null {
  const trimmed = email.trim();
  if (trimmed === '') {
    toastError(sk.auth.missingEmailTitle, sk.auth.missingEmail);
    return null;
  }
  return trimmed;
}

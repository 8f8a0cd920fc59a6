// Secure e-mail change, as GoTrue with GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED (its default; see
// supabase/auth internal/api/user.go, mail.go emailChangeVerify in verify.go):
// - PUT /user {email} only records the wish (users.email_change) and mails a link to the new
//   address and, when the account has a confirmed address, one to the current address too.
// - email_change_confirm_status counts the links already opened; the address changes only when the
//   last required one is opened, so a stolen access token alone cannot move the account to an
//   attacker's mailbox. The old address is told once the change happened.
// - A new request voids the previous pair (issueLink keeps one live token per type).
import type { AuthDeps } from './deps.ts';
import type { Db } from './db.ts';
import { renderMail } from './mail-templates.ts';
import { issueLink, type Pkce } from './one-time-tokens.ts';
import type { UserRow } from './users.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** True when the current address must confirm too (it exists and was confirmed). */
export function needsBothConfirmations(user: Pick<UserRow, 'email' | 'email_confirmed_at'>): boolean {
  return !!user.email && user.email_confirmed_at !== null;
}

/** Records the pending change and returns the mails to send once the transaction committed. */
export async function requestEmailChange(
  deps: AuthDeps,
  db: Db,
  user: UserRow,
  newEmail: string,
  redirectTo: string,
  pkce: Pkce | undefined,
): Promise<Mail[]> {
  const both = needsBothConfirmations(user);
  // Confirmations still missing before the change may happen: 0 of 2, or 1 of 1 done when only the
  // new address has to confirm.
  await db.query(
    'update auth.users set email_change = $2, email_change_confirm_status = $3, updated_at = now() where id = $1',
    [user.id, newEmail, both ? 0 : 1],
  );
  const mails: Mail[] = [];
  const toNew = await issueLink(deps, db, { userId: user.id, type: 'email_change', relatesTo: newEmail, redirectTo, pkce });
  mails.push({ to: newEmail, ...renderMail('email_change', toNew.actionLink, toNew.code) });
  if (both) {
    const toOld = await issueLink(deps, db, { userId: user.id, type: 'email_change_current', relatesTo: newEmail, redirectTo, pkce });
    mails.push({ to: user.email!, ...renderMail('email_change_current', toOld.actionLink, toOld.code) });
  } else {
    await db.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change_current'`, [user.id]);
  }
  return mails;
}

export const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

// Attributes of POST/PUT /admin/users, read and applied the way GoTrue's admin API does.
import { bool, obj, str, type Json } from './body.ts';
import { checkPassword, hashPassword, normalizeEmail } from './credentials.ts';
import type { Db } from './db.ts';
import { validationFailed } from './errors.ts';
import { confirmEmail, mergeMetadata, type UserRow } from './users.ts';

export interface AdminAttrs {
  email: string | undefined;
  passwordHash: string | undefined;
  emailConfirm: boolean | undefined;
  userMeta: Json | undefined;
  appMeta: Json | undefined;
  role: string | undefined;
  /** undefined: leave as is; null: lift the ban. */
  bannedUntil: Date | null | undefined;
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** Go duration strings as GoTrue takes them ("24h", "1h30m", "90s"), or "none". */
export function parseBanDuration(raw: string): Date | null {
  if (raw === 'none') return null;
  const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== raw) throw validationFailed('invalid format for ban duration');
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] ?? ''] ?? 0), 0);
  return new Date(Date.now() + ms);
}

export async function readAdminAttrs(body: Json, hashCost?: number): Promise<AdminAttrs> {
  const email = str(body, 'email');
  const password = str(body, 'password');
  const ban = str(body, 'ban_duration');
  return {
    email: email === undefined ? undefined : normalizeEmail(email),
    passwordHash: password === undefined ? undefined : await hashPassword(checkPassword(password), hashCost),
    emailConfirm: bool(body, 'email_confirm'),
    userMeta: obj(body, 'user_metadata'),
    appMeta: obj(body, 'app_metadata'),
    role: str(body, 'role'),
    bannedUntil: ban === undefined ? undefined : parseBanDuration(ban),
  };
}

/** Applies everything but creation; the e-mail changes at once (an administrator needs no link). */
export async function applyAdminAttrs(db: Db, user: UserRow, a: AdminAttrs): Promise<void> {
  const set = async (sql: string, value: unknown) =>
    db.query(`update auth.users set ${sql} = $2, updated_at = now() where id = $1`, [user.id, value]);
  if (a.email !== undefined && a.email !== user.email) {
    await set('email', a.email);
    await db.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
       where user_id = $1 and provider = 'email'`,
      [user.id, a.email],
    );
  }
  if (a.passwordHash !== undefined) await set('encrypted_password', a.passwordHash);
  if (a.emailConfirm === true) await confirmEmail(db, user.id);
  if (a.userMeta !== undefined) await set('raw_user_meta_data', JSON.stringify(mergeMetadata(user.raw_user_meta_data, a.userMeta)));
  if (a.appMeta !== undefined) await set('raw_app_meta_data', JSON.stringify(mergeMetadata(user.raw_app_meta_data, a.appMeta)));
  if (a.role !== undefined) await set('role', a.role);
  if (a.bannedUntil !== undefined) {
    await set('banned_until', a.bannedUntil);
    // A ban ends the user's sessions now, not when their access tokens expire.
    if (a.bannedUntil) await db.query('delete from auth.sessions where user_id = $1', [user.id]);
  }
}

// auth.users and auth.identities rows, and the GoTrue user JSON auth-js expects. GoTrue omits unset
// timestamps (omitempty) and always sends phone as a string.
import type { Db } from './db.ts';
import type { Json } from './body.ts';

export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Json;
  raw_user_meta_data: Json;
  created_at: Date;
  updated_at: Date;
  phone: string | null;
  phone_confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Json;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
  email: string | null;
}

export const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
  confirmation_sent_at, recovery_sent_at, email_change, last_sign_in_at, raw_app_meta_data,
  raw_user_meta_data, created_at, updated_at, phone, phone_confirmed_at, banned_until, is_anonymous`;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID_RE.test(s);

/** Soft-deleted users (deleted_at set) do not exist for any endpoint. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!isUuid(id)) return undefined;
  const r = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1 and deleted_at is null`, [id]);
  return r.rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const r = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and deleted_at is null`,
    [email],
  );
  return r.rows[0];
}

export async function emailTakenByOther(db: Db, email: string, userId: string): Promise<boolean> {
  const r = await db.query('select 1 from auth.users where lower(email) = lower($1) and id <> $2', [email, userId]);
  return (r.rowCount ?? 0) > 0;
}

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && user.banned_until.getTime() > Date.now();
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  userMeta: Json;
  appMeta?: Json;
  confirmed: boolean;
  invited?: boolean;
}

/** Inserts the user and its e-mail identity; a duplicate e-mail raises a unique violation (23505). */
export async function insertUser(db: Db, u: NewUser): Promise<UserRow> {
  const appMeta = { provider: 'email', providers: ['email'], ...u.appMeta };
  const r = await db.query<UserRow>(
    `insert into auth.users (instance_id, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, case when $3 then now() end,
       case when $4 then now() end, $5, $6)
     returning ${USER_COLUMNS}`,
    [u.email, u.passwordHash, u.confirmed, u.invited ?? false, JSON.stringify(appMeta), JSON.stringify(u.userMeta)],
  );
  const user = r.rows[0]!;
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider)
     values ($1, $2, $3, 'email')`,
    [user.id, user.id, JSON.stringify({ sub: user.id, email: u.email, email_verified: u.confirmed, phone_verified: false })],
  );
  return user;
}

export async function markSignedIn(db: Db, userId: string): Promise<void> {
  await db.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
  await db.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`, [userId]);
}

export async function confirmEmail(db: Db, userId: string): Promise<void> {
  await db.query(
    'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1',
    [userId],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId],
  );
}

/** GoTrue semantics: top-level keys merge, a null value removes its key. */
export function mergeMetadata(current: Json, patch: Json): Json {
  const next: Json = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

function identityJson(i: IdentityRow) {
  return {
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
    last_sign_in_at: iso(i.last_sign_in_at),
    created_at: i.created_at.toISOString(),
    updated_at: i.updated_at.toISOString(),
    email: i.email ?? undefined,
  };
}

export type UserJson = Record<string, unknown> & { id: string };

export function toUserJson(u: UserRow, identities: IdentityRow[]): UserJson {
  return {
    id: u.id,
    aud: u.aud,
    role: u.role,
    email: u.email ?? '',
    email_confirmed_at: iso(u.email_confirmed_at),
    phone: u.phone ?? '',
    phone_confirmed_at: iso(u.phone_confirmed_at),
    confirmation_sent_at: iso(u.confirmation_sent_at),
    confirmed_at: iso(u.email_confirmed_at ?? u.phone_confirmed_at),
    invited_at: iso(u.invited_at),
    recovery_sent_at: iso(u.recovery_sent_at),
    new_email: u.email_change || undefined,
    last_sign_in_at: iso(u.last_sign_in_at),
    app_metadata: u.raw_app_meta_data,
    user_metadata: u.raw_user_meta_data,
    identities: identities.map(identityJson),
    created_at: u.created_at.toISOString(),
    updated_at: u.updated_at.toISOString(),
    banned_until: iso(u.banned_until),
    is_anonymous: u.is_anonymous,
  };
}

export async function userJson(db: Db, u: UserRow): Promise<UserJson> {
  const r = await db.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
     from auth.identities where user_id = $1 order by created_at`,
    [u.id],
  );
  return toUserJson(u, r.rows);
}

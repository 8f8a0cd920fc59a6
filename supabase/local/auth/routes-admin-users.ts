// GoTrue's admin user API (service_role only): list, create, get, update, delete.
import type { Hono } from 'hono';
import { bool, readBody } from './body.ts';
import type { Services } from './context.ts';
import { applyAdminAttrs, readAdminAttrs } from './admin-attrs.ts';
import { withTx, withTxNewEmail } from './db.ts';
import { emailExists, notFound, validationFailed } from './errors.ts';
import { findUserById, findUserByEmail, insertUser, toUserJson, USER_COLUMNS, userJson, type UserRow } from './users.ts';

function positiveInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw validationFailed(`Bad Pagination Parameters: ${name}`);
  return n;
}

export function adminUserRoutes(app: Hono, { deps }: Services): void {
  app.get('/admin/users', async (c) => {
    const page = positiveInt(c.req.query('page'), 1, 'page');
    const perPage = Math.min(positiveInt(c.req.query('per_page'), 50, 'per_page'), 1000);
    const total = await deps.pool.query<{ n: string }>('select count(*) as n from auth.users where deleted_at is null');
    const count = Number(total.rows[0]?.n ?? 0);
    const rows = await deps.pool.query<UserRow>(
      `select ${USER_COLUMNS} from auth.users where deleted_at is null order by created_at desc, id limit $1 offset $2`,
      [perPage, (page - 1) * perPage],
    );
    const users = await Promise.all(rows.rows.map((u) => userJson(deps.pool, u)));
    const last = Math.max(1, Math.ceil(count / perPage));
    const links: string[] = [];
    if (page < last) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`</admin/users?page=${last}&per_page=${perPage}>; rel="last"`);
    c.header('x-total-count', String(count));
    c.header('link', links.join(', '));
    return c.json({ users, aud: 'authenticated' });
  });

  app.post('/admin/users', async (c) => {
    const body = await readBody(c);
    const attrs = await readAdminAttrs(body, deps.config.passwordHashCost);
    if (!attrs.email) throw validationFailed('Unable to validate email address: invalid format');
    const email = attrs.email;
    const user = await withTxNewEmail(deps.pool, async (db) => {
      if (await findUserByEmail(db, email)) throw emailExists();
      const created = await insertUser(db, {
        email,
        passwordHash: attrs.passwordHash ?? null,
        userMeta: attrs.userMeta ?? {},
        appMeta: attrs.appMeta ?? {},
        confirmed: attrs.emailConfirm === true,
      });
      await applyAdminAttrs(db, created, { ...attrs, email: undefined, passwordHash: undefined, userMeta: undefined, appMeta: undefined });
      return (await findUserById(db, created.id)) ?? created;
    });
    return c.json(await userJson(deps.pool, user));
  });

  app.get('/admin/users/:id', async (c) => {
    const user = await findUserById(deps.pool, c.req.param('id'));
    if (!user) throw notFound('user_not_found', 'User not found');
    return c.json(await userJson(deps.pool, user));
  });

  app.put('/admin/users/:id', async (c) => {
    const body = await readBody(c);
    const attrs = await readAdminAttrs(body, deps.config.passwordHashCost);
    // An e-mail change may take an address another request registered meanwhile.
    const user = await withTxNewEmail(deps.pool, async (db) => {
      const found = await findUserById(db, c.req.param('id'));
      if (!found) throw notFound('user_not_found', 'User not found');
      await applyAdminAttrs(db, found, attrs);
      return (await findUserById(db, found.id)) ?? found;
    });
    return c.json(await userJson(deps.pool, user));
  });

  app.delete('/admin/users/:id', async (c) => {
    const body = await readBody(c);
    const soft = bool(body, 'should_soft_delete') ?? false;
    const deleted = await withTx(deps.pool, async (db) => {
      const user = await findUserById(db, c.req.param('id'));
      if (!user) throw notFound('user_not_found', 'User not found');
      if (!soft) {
        await db.query('delete from auth.users where id = $1', [user.id]);
        return user;
      }
      // GoTrue's soft delete: the row stays for foreign keys, but nothing can sign in as it again.
      await db.query('delete from auth.sessions where user_id = $1', [user.id]);
      await db.query('delete from auth.identities where user_id = $1', [user.id]);
      await db.query(
        `update auth.users set deleted_at = now(), email = null, encrypted_password = null, phone = null,
           raw_app_meta_data = '{}'::jsonb, raw_user_meta_data = '{}'::jsonb, updated_at = now() where id = $1`,
        [user.id],
      );
      return user;
    });
    return c.json(toUserJson(deleted, []));
  });
}

// current_account_id looked up once per transaction (migration 20261130163000): within one
// transaction it answers from transaction-local settings keyed by the caller's claims, and every write
// to what it reads (impersonations, app_users, account_users) makes the next statement look again.
// Each case runs in one transaction on one connection, the caller's role and claims set as PostgREST
// sets them (transaction-local), the writes made as the server (postgres) in between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { closeDb, createConversation, createUser, db, type TestUser } from './helpers.ts';

let admin: TestUser;
let a: TestUser;
let b: TestUser;

beforeAll(async () => {
  admin = await createUser('once-admin', { superAdmin: true });
  a = await createUser('once-a');
  b = await createUser('once-b');
});
afterAll(closeDb);

/** Acts as `user` for the rest of the transaction, as PostgREST does at a request's start. */
async function actAs(c: pg.PoolClient, user: TestUser): Promise<void> {
  await c.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [
    JSON.stringify({ sub: user.id, role: 'authenticated', email: user.email }),
  ]);
}
const acting = async (c: pg.PoolClient) => (await c.query<{ a: string | null }>('select public.current_account_id() as a')).rows[0]!.a;
/** A write as the server in the middle of the caller's transaction. */
async function asServer(c: pg.PoolClient, sql: string, params: unknown[]): Promise<void> {
  await c.query('reset role');
  await c.query(sql, params);
  await c.query(`select set_config('role', 'authenticated', true)`);
}

async function inTransaction(fn: (c: pg.PoolClient) => Promise<void>): Promise<void> {
  const c = await db().connect();
  try {
    await c.query('begin');
    await fn(c);
  } finally {
    await c.query('rollback');
    c.release();
  }
}

describe('current_account_id, once per transaction (20261130163000)', () => {
  it('other claims in the same transaction are another caller: each gets its own account', async () => {
    await inTransaction(async (c) => {
      await actAs(c, a);
      expect(await acting(c)).toBe(a.accountId);
      await actAs(c, b);
      expect(await acting(c)).toBe(b.accountId);
      await actAs(c, a);
      expect(await acting(c)).toBe(a.accountId);
      await c.query(`select set_config('request.jwt.claims', '', true)`);
      expect(await acting(c)).toBeNull();
    });
  });

  it('an impersonation started, the role lost, or it stopped in the same transaction: the next statement acts accordingly, RLS included', async () => {
    const convA = await createConversation(a.accountId);
    await inTransaction(async (c) => {
      await actAs(c, admin);
      expect(await acting(c)).toBe(admin.accountId);
      expect((await c.query('select id from public.conversations where id = $1', [convA])).rows).toHaveLength(0);

      await asServer(c, 'insert into public.impersonations (admin_user_id, account_id) values ($1, $2)', [admin.id, a.accountId]);
      expect(await acting(c)).toBe(a.accountId);
      expect((await c.query('select id from public.conversations where id = $1', [convA])).rows).toHaveLength(1);

      await asServer(c, 'delete from public.app_users where user_id = $1', [admin.id]);
      expect(await acting(c)).toBe(admin.accountId);
      await asServer(c, `insert into public.app_users (user_id, role) values ($1, 'super_admin')`, [admin.id]);
      expect(await acting(c)).toBe(a.accountId);

      await asServer(c, 'delete from public.impersonations where admin_user_id = $1', [admin.id]);
      expect(await acting(c)).toBe(admin.accountId);
      expect((await c.query('select id from public.conversations where id = $1', [convA])).rows).toHaveLength(0);
    });
  });

  it('a membership removed in the same transaction, directly or by deleting the user (cascade): no account from the next statement', async () => {
    await inTransaction(async (c) => {
      await actAs(c, a);
      expect(await acting(c)).toBe(a.accountId);
      await asServer(c, 'delete from public.account_users where user_id = $1', [a.id]);
      expect(await acting(c)).toBeNull();
    });
    await inTransaction(async (c) => {
      await actAs(c, b);
      expect(await acting(c)).toBe(b.accountId);
      await asServer(c, 'delete from auth.users where id = $1', [b.id]);
      expect(await acting(c)).toBeNull();
    });
  });

  it('a change rolled back to a savepoint takes the answer back with it; nothing outlives the transaction', async () => {
    const c = await db().connect();
    try {
      await c.query('begin');
      await actAs(c, admin);
      expect(await acting(c)).toBe(admin.accountId);
      await c.query('savepoint s');
      await asServer(c, 'insert into public.impersonations (admin_user_id, account_id) values ($1, $2)', [admin.id, b.accountId]);
      expect(await acting(c)).toBe(b.accountId);
      await c.query('rollback to savepoint s');
      expect(await acting(c)).toBe(admin.accountId);
      await c.query('commit');

      const left = await c.query<{ key: string | null; account: string | null }>(
        `select current_setting('poradna.acting_key', true) as key, current_setting('poradna.acting_account', true) as account`,
      );
      expect(left.rows[0]!.key ?? '').toBe('');
      expect(left.rows[0]!.account ?? '').toBe('');
    } finally {
      c.release();
    }
  });
});

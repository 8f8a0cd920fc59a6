// The send path with fewer statements and no trigger check rebuilt per send (migrations
// 20261130170000 to 20261130170500, issue 41 part 3): the same rules, held where the cut could move them. Each case runs
// in one transaction on one connection, the caller's role and claims set as PostgREST sets them
// (transaction-local), the server's writes made as postgres in between; the transaction is rolled back.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, db, rest, type TestUser } from './helpers.ts';

let admin: TestUser;
let a: TestUser;

beforeAll(async () => {
  admin = await createUser('stmts-admin', { superAdmin: true });
  a = await createUser('stmts-a');
});
afterAll(closeDb);

async function actAs(c: pg.PoolClient, user: TestUser): Promise<void> {
  await c.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [
    JSON.stringify({ sub: user.id, role: 'authenticated', email: user.email }),
  ]);
}
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
const send = async (c: pg.PoolClient, conv: string, text = 'ahoj') =>
  (
    await c.query<{ id: string; sender_user_id: string | null }>(
      'select id, sender_user_id from public.send_message($1, $2, $3)',
      [conv, text, randomUUID()],
    )
  ).rows[0]!;
/** Every audited message insert in this test's two accounts after audit_log row `after`, whoever the
 *  actor (a wrong one included). */
const auditedInserts = async (c: pg.PoolClient, after: string) =>
  (
    await c.query<{ actor: string | null; row_id: string; account_id: string }>(
      `select actor_user_id as actor, row_id, account_id from public.audit_log
        where id > $1 and action = 'impersonated.insert' and table_name = 'messages' and account_id = any($2::uuid[])
        order by id`,
      [after, [a.accountId, admin.accountId]],
    )
  ).rows;

describe('send path statements (20261130170000-170500)', () => {
  it('a send runs no SQL helper through the SQL-function executor: caller_is_client and is_ai_message are written out', async () => {
    const conv = await createConversation(a.accountId);
    await inTransaction(async (c) => {
      await c.query(`set local track_functions = 'all'`);
      await actAs(c, a);
      const sent = await send(c, conv);
      expect(sent.sender_user_id).toBe(a.id);
      await c.query('reset role');
      const calls = await c.query<{ fn: string; n: string }>(
        `select f::text as fn, coalesce(pg_stat_get_xact_function_calls(f), 0) as n
           from unnest(array['private.caller_is_client()'::regprocedure, 'private.is_ai_message(public.messages)'::regprocedure]) f`,
      );
      expect(calls.rows.map((r) => [r.fn, Number(r.n)])).toEqual([
        ['private.caller_is_client()', 0],
        ['private.is_ai_message(messages)', 0],
      ]);
    });
  });

  it('R18.1: the conversation update broadcast names every column of conversations but last_message_at (a new column must be added to it)', async () => {
    const { rows } = await db().query<{ listed: string[]; all: string[] }>(
      `select array(select a.attname::text from unnest(t.tgattr::int2[]) k join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k order by 1) as listed,
              array(select a.attname::text from pg_attribute a where a.attrelid = t.tgrelid and a.attnum > 0 and not a.attisdropped
                      and a.attname <> 'last_message_at' order by 1) as all
         from pg_trigger t where t.tgrelid = 'public.conversations'::regclass and t.tgname = 't95_broadcast_update'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.listed).toEqual(rows[0]!.all);
  });

  it('R18.1: a server update naming last_message_at beside another column is announced when its number moved and last_message_at stayed', async () => {
    const conv = await createConversation(a.accountId);
    await inTransaction(async (c) => {
      const before = await c.query<{ n: string }>(`select count(*) as n from realtime.messages where topic = $1`, [`account:${a.accountId}`]);
      await c.query(`update public.conversations set archived_at = now(), last_message_at = last_message_at where id = $1`, [conv]);
      // At commit in real life; here the deferred triggers fire on demand.
      await c.query('set constraints all immediate');
      const after = await c.query<{ n: string }>(`select count(*) as n from realtime.messages where topic = $1`, [`account:${a.accountId}`]);
      expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n) + 1);
    });
  });

  it("accounts' guard without its WHEN clause: an API client (a super admin, the one role whose UPDATE reaches accounts) still cannot move an account's change number or last activity; the server's counter bump passes", async () => {
    const acc = await db().query<{ change_seq: string; last_activity_at: Date | null }>(
      'select change_seq, last_activity_at from public.accounts where id = $1',
      [a.accountId],
    );
    for (const patch of [{ change_seq: 1 }, { last_activity_at: '2001-01-01T00:00:00Z' }]) {
      const r = await rest(admin.caller, 'PATCH', `accounts?id=eq.${a.accountId}`, patch);
      expect([r.status, (r.body as { code?: string }).code], JSON.stringify(patch)).toEqual([403, '42501']);
    }
    const now = await db().query<{ change_seq: string; last_activity_at: Date | null }>(
      'select change_seq, last_activity_at from public.accounts where id = $1',
      [a.accountId],
    );
    expect(now.rows[0]).toEqual(acc.rows[0]);
    const conv = await createConversation(a.accountId);
    await inTransaction(async (c) => {
      await actAs(c, a);
      await send(c, conv);
      await c.query('reset role');
      const bumped = await c.query<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [a.accountId]);
      expect(Number(bumped.rows[0]!.change_seq)).toBeGreaterThan(Number(acc.rows[0]!.change_seq));
    });
  });

  it("the audit of an impersonated send follows the impersonation within one transaction, and another caller's claims are not audited", async () => {
    const convA = await createConversation(a.accountId);
    const convOwn = await createConversation(admin.accountId);
    await inTransaction(async (c) => {
      const start = (await c.query<{ n: string }>('select coalesce(max(id), 0) as n from public.audit_log')).rows[0]!.n;
      await actAs(c, admin);
      await asServer(c, 'insert into public.impersonations (admin_user_id, account_id) values ($1, $2)', [admin.id, a.accountId]);
      const first = await send(c, convA);
      await c.query('reset role');
      expect(await auditedInserts(c, start)).toEqual([{ actor: admin.id, row_id: first.id, account_id: a.accountId }]);

      // The server's own insert under the service role's claims (no user id), after the admin's in the
      // same transaction: not the admin's write, not audited.
      await c.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', true), set_config('role', 'service_role', true)`);
      await c.query(`insert into public.messages (conversation_id, direction, text) values ($1, 'specialist', 'odpoveď')`, [convA]);
      await c.query('reset role');
      expect(await auditedInserts(c, start)).toHaveLength(1);

      await actAs(c, admin);
      await asServer(c, 'delete from public.impersonations where admin_user_id = $1', [admin.id]);
      // No longer impersonating: the admin's send in their own account is theirs, not audited.
      await send(c, convOwn);
      await c.query('reset role');
      expect(await auditedInserts(c, start)).toHaveLength(1);
    });
  });

  it('send_message by a caller t10_guard does not stamp keeps the default sender: auth.uid() of the claims', async () => {
    const conv = await createConversation(a.accountId);
    await inTransaction(async (c) => {
      await c.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: a.id, role: 'authenticated' })]);
      expect((await send(c, conv)).sender_user_id).toBe(a.id);
      await c.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', true)`);
      expect((await send(c, conv)).sender_user_id).toBeNull();
    });
  });
});

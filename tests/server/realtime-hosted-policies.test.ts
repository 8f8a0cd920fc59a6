// The realtime.messages policies (20261123001000, required by 20261129110200 and 20261130100000) on the
// stack's realtime.messages, which has hosted's shape (supabase/local/sql/realtime-messages.sql): private
// channels follow public.realtime_topic_allowed. In one rolled-back transaction, reads and inserts as
// two members the way hosted Realtime's authorization check does (role + claims + realtime.topic set,
// supabase/realtime lib/realtime/tenants/authorization.ex).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';

const stack = inject('stack');
let db: pg.Client;

async function memberAccount(): Promise<{ userId: string; accountId: string }> {
  const email = uniqueEmail('rthosted');
  const created = await serviceClient(stack).auth.admin.createUser({
    email,
    password: 'heslo12345',
    email_confirm: true,
  });
  const client = anonClient(stack);
  await client.auth.signInWithPassword({ email, password: 'heslo12345' });
  const conv = await client.rpc('ensure_first_conversation');
  const id = (conv.data as { conversation_id: string }).conversation_id;
  const acc = await client.from('conversations').select('account_id').eq('id', id).single();
  return { userId: created.data.user!.id, accountId: acc.data!.account_id as string };
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db.end();
});

describe('hosted realtime.messages policies', () => {
  it("admit a member to its own account's topic only", async () => {
    const a = await memberAccount();
    const b = await memberAccount();
    await db.query('begin');
    try {
      // Hosted Realtime's check: a read is a SELECT of a row of the topic, a broadcast an INSERT.
      const check = async (userId: string, topic: string) => {
        await db.query('savepoint s');
        await db.query(`insert into realtime.messages (topic, extension) values ($1, 'broadcast')`, [topic]);
        await db.query(
          `select set_config('request.jwt.claims', $1, true), set_config('realtime.topic', $2, true)`,
          [JSON.stringify({ sub: userId, role: 'authenticated' }), topic],
        );
        await db.query('set local role authenticated');
        const read = (await db.query('select 1 from realtime.messages where topic = realtime.topic()'))
          .rowCount ?? 0;
        let wrote = true;
        try {
          await db.query(
            `insert into realtime.messages (topic, extension) values (realtime.topic(), 'broadcast')`,
          );
        } catch {
          wrote = false;
        }
        await db.query('rollback to savepoint s');
        return { read: read > 0, wrote };
      };
      expect(await check(a.userId, `sync:${a.accountId}:x`)).toEqual({ read: true, wrote: true });
      expect(await check(b.userId, `sync:${a.accountId}:x`)).toEqual({ read: false, wrote: false });
      expect(await check(b.userId, `messages:${a.accountId}`)).toEqual({ read: false, wrote: false });
      expect(await check(b.userId, `sync:${b.accountId}`)).toEqual({ read: true, wrote: true });
      // R6.8's relay topic (20261127000100): the user's own devices only.
      expect(await check(a.userId, `user:${a.userId}`)).toEqual({ read: true, wrote: true });
      expect(await check(b.userId, `user:${a.userId}`)).toEqual({ read: false, wrote: false });
      expect(await check(a.userId, `user:${a.accountId}`)).toEqual({ read: false, wrote: false });
    } finally {
      await db.query('rollback');
    }
  });
});

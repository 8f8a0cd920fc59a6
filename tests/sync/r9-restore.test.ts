// R9.7 (issue 18, row 7): a backup restored on the server while the client is offline, then new
// writes. The restore is a real one, done the way pg_restore --data-only --disable-triggers does it
// after a cleanup (the stack's PostgreSQL 18 has no pg_dump here, the system's pg_dump 15 refuses a
// newer server): every public table is copied aside (the backup), later the tables are truncated and
// the copies loaded back with triggers off, sequences set back. The change counters go back with
// the data, so the numbers the client holds are reused by other rows.
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { createConversation, pool, specialistSays, testSpecialists } from './helpers/server-db.ts';
import { Device, localMessages, newUser, serverMessages } from './helpers/real-device.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

let stack: TestStack;
let db: pg.Pool;
const devices: Device[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  db = pool(stack.databaseUrl);
  db.on('error', () => undefined); // idle connections end with the stack
});
afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});
afterAll(async () => {
  await db.end();
  await stack.destroy();
});

async function publicTables(c: pg.PoolClient): Promise<string[]> {
  const r = await c.query<{ t: string }>(`select tablename as t from pg_tables where schemaname = 'public' order by 1`);
  return r.rows.map((x) => x.t);
}

/** The backup: a copy of every public table and the sequences' positions, in schema `backup`. */
async function backup(): Promise<void> {
  const c = await db.connect();
  try {
    await c.query('begin isolation level repeatable read');
    await c.query('drop schema if exists backup cascade; create schema backup');
    for (const t of await publicTables(c)) await c.query(`create table backup.${t} as table public.${t}`);
    await c.query(`create table backup.sequences as select schemaname || '.' || sequencename as name, last_value from pg_sequences where schemaname = 'public'`);
    await c.query('commit');
  } finally {
    c.release();
  }
}

/** The restore: truncate, load the copies back with triggers off, sequences back (one transaction). */
async function restore(): Promise<void> {
  const c = await db.connect();
  try {
    await c.query('begin');
    await c.query('set local session_replication_role = replica');
    const tables = await publicTables(c);
    await c.query(`truncate ${tables.map((t) => `public.${t}`).join(', ')}`);
    for (const t of tables) {
      const cols = await c.query<{ c: string }>(
        `select quote_ident(column_name) as c from information_schema.columns
          where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
        [t],
      );
      const list = cols.rows.map((x) => x.c).join(', ');
      await c.query(`insert into public.${t} (${list}) overriding system value select ${list} from backup.${t}`);
    }
    for (const s of (await c.query<{ name: string; last_value: string | null }>('select * from backup.sequences')).rows) {
      if (s.last_value !== null) await c.query('select setval($1, $2)', [s.name, s.last_value]);
    }
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  } finally {
    c.release();
  }
}

describe('R9.7 a restored backup (issue 18, row 7)', () => {
  it('R9.7 a backup restored while the client is offline, then new writes: the client resets, re-pulls and equals the server; its unsent messages are delivered', async () => {
    const { humans } = await testSpecialists(db);
    const user = await newUser(stack, db);
    const conv = await createConversation(db, user.accountId, humans[0]!);
    await specialistSays(db, conv, 'pred zálohou');
    const d = new Device(stack);
    devices.push(d);
    await d.signIn(user.email);
    const engine = await d.start(user.id, { accountId: user.accountId });
    await waitFor(async () => (await localMessages(engine, conv)).length === 1, 'first pull', 8000);

    await backup();
    // Written after the backup, seen by the client: lost by the restore (the 4 stale local rows).
    for (let i = 0; i < 4; i++) await specialistSays(db, conv, `stratené ${i}`);
    await waitFor(async () => (await localMessages(engine, conv)).length === 5, 'lost rows pulled', 8000);
    const cursorBefore = (await engine.db.meta.get('feed'))!;

    d.setOnline(false);
    await engine.commands.sendMessage({ conversationId: conv, text: 'napísané offline 1' });
    await engine.commands.sendMessage({ conversationId: conv, text: 'napísané offline 2' });
    await restore();
    // New writes after the restore take the very numbers the client already holds (the 4 missing rows).
    for (let i = 0; i < 4; i++) await specialistSays(db, conv, `po obnove ${i}`);
    const seq = await db.query<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [user.accountId]);
    expect(Number(seq.rows[0]!.change_seq)).toBeGreaterThanOrEqual(cursorBefore.key === 'feed' ? cursorBefore.cursor : 0);

    d.setOnline(true);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox drained', 8000);
    await waitFor(
      async () => JSON.stringify(await localMessages(engine, conv)) === JSON.stringify(await serverMessages(db, conv)),
      'client equals server',
      8000,
    );
    const texts = (await serverMessages(db, conv)).map((m) => m.text);
    expect(texts).toEqual(['pred zálohou', 'po obnove 0', 'po obnove 1', 'po obnove 2', 'po obnove 3', 'napísané offline 1', 'napísané offline 2']);
    expect((await engine.db.messages.toArray()).map((m) => m.text)).not.toContain('stratené 0');
  });
});

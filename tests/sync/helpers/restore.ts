// A real data-level backup and restore of the stack's database (R9.7, issue 18 row 7), done the way
// pg_restore --data-only --disable-triggers does it after a cleanup: the stack's PostgreSQL 18 has no
// pg_dump here and the system's pg_dump 15 refuses a newer server, so every public table is copied
// aside into schema `backup` (with the other schemas' tables that reference them) (the backup), and later the tables are truncated and the copies loaded
// back with triggers off, sequences set back, in one transaction (the restore). The change counters
// go back with the data, so numbers clients already hold are reused by other rows; TRUNCATE gives
// public.accounts a new file, which is what the feed epoch sees. Used by tests/sync/r9-restore.test.ts
// and the hostile fuzz (fuzz-hostile-run.ts). One backup at a time per database.
import type pg from 'pg';

interface DataTable {
  schema: string;
  name: string;
  /** Its copy in schema `backup` (public tables keep their names: the lost-rows query reads them). */
  copy: string;
}

/**
 * The data a restore brings back: every public table, and every table of another schema that
 * references one (e.g. private.chatwoot_event_clock, R14.9): a data dump holds both, and TRUNCATE
 * refuses a public table that another schema's table still references.
 */
async function dataTables(c: pg.PoolClient): Promise<DataTable[]> {
  const r = await c.query<{ schema: string; name: string }>(
    `select schemaname as schema, tablename as name from pg_tables where schemaname = 'public'
     union
     select n.nspname, t.relname from pg_constraint k
       join pg_class t on t.oid = k.conrelid join pg_namespace n on n.oid = t.relnamespace
       join pg_class r on r.oid = k.confrelid join pg_namespace rn on rn.oid = r.relnamespace
      where k.contype = 'f' and rn.nspname = 'public' and n.nspname <> 'public'
     order by 1, 2`,
  );
  return r.rows.map((t) => ({ ...t, copy: t.schema === 'public' ? t.name : `${t.schema}__${t.name}` }));
}

const qualified = (t: DataTable) => `${t.schema}.${t.name}`;

/** The backup: a copy of every public table and the sequences' positions, in schema `backup` (replaced). */
export async function backup(db: pg.Pool): Promise<void> {
  const c = await db.connect();
  try {
    await c.query('begin isolation level repeatable read');
    await c.query('drop schema if exists backup cascade; create schema backup');
    for (const t of await dataTables(c)) await c.query(`create table backup.${t.copy} as table ${qualified(t)}`);
    await c.query(`create table backup.sequences as select schemaname || '.' || sequencename as name, last_value from pg_sequences where schemaname = 'public'`);
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  } finally {
    c.release();
  }
}

/** A message the restore took away: on the server when the restore began, not in the backup. */
export interface LostMessage {
  id: string;
  accountId: string;
  conversationId: string;
  text: string | null;
  direction: string;
}

/**
 * The restore: every public table locked first (writers wait, so what is read next is exactly what
 * the restore replaces), the messages the backup lacks read, then truncate, the copies loaded back
 * with triggers off and sequences set back, then `inside` (what the caller keeps from before), all in
 * one transaction. Returns the lost messages.
 */
export async function restore(db: pg.Pool, opts: { inside?: (c: pg.PoolClient) => Promise<void> } = {}): Promise<LostMessage[]> {
  // Locking every table may deadlock with a request that holds one and waits for another; PostgreSQL
  // then aborts one side. The restore is tried again (the request, if it was the victim, failed as
  // any request may and is retried by its client).
  for (let attempt = 1; ; attempt++) {
    try {
      return await restoreOnce(db, opts);
    } catch (err) {
      if (attempt >= 5 || (err as { code?: string }).code !== '40P01') throw err;
    }
  }
}

async function restoreOnce(db: pg.Pool, opts: { inside?: (c: pg.PoolClient) => Promise<void> }): Promise<LostMessage[]> {
  const c = await db.connect();
  try {
    await c.query('begin');
    const tables = await dataTables(c);
    await c.query(`lock table ${tables.map(qualified).join(', ')} in access exclusive mode`);
    const lost = await c.query<LostMessage>(
      `select m.id, m.account_id as "accountId", m.conversation_id as "conversationId", m.text, m.direction
         from public.messages m where not exists (select 1 from backup.messages b where b.id = m.id)`,
    );
    await c.query('set local session_replication_role = replica');
    await c.query(`truncate ${tables.map(qualified).join(', ')}`);
    for (const t of tables) {
      const cols = await c.query<{ c: string }>(
        `select quote_ident(column_name) as c from information_schema.columns
          where table_schema = $1 and table_name = $2 and is_generated = 'NEVER' order by ordinal_position`,
        [t.schema, t.name],
      );
      const list = cols.rows.map((x) => x.c).join(', ');
      await c.query(`insert into ${qualified(t)} (${list}) overriding system value select ${list} from backup.${t.copy}`);
    }
    for (const s of (await c.query<{ name: string; last_value: string | null }>('select * from backup.sequences')).rows) {
      if (s.last_value !== null) await c.query('select setval($1, $2)', [s.name, s.last_value]);
    }
    // Whatever the caller keeps from before the restore, written in its transaction (triggers off).
    await opts.inside?.(c);
    await c.query('commit');
    return lost.rows;
  } catch (err) {
    await c.query('rollback');
    throw err;
  } finally {
    c.release();
  }
}

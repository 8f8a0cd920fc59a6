// The realtime service's checks stay warm (supabase/local/realtime/check-pool.ts): re-running
// local_stack.sync_realtime_triggers() (every stack start, every newly published table) must not
// replace an unchanged visibility function, which would make every session compile and plan it anew
// (20-70 ms on the next check of that table); local_stack.realtime_warm() runs every visibility
// function once without error and leaves no subscriber's claims or role set.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const stack = inject('stack');
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db.end();
});

/** Row versions of every visibility function (a replaced function gets a new one). */
async function versions(): Promise<Map<string, string>> {
  const { rows } = await db.query<{ proname: string; v: string }>(
    `select p.proname, p.xmin::text || ':' || p.ctid::text as v
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'local_stack' and p.proname ~ '^realtime_visible_[0-9]+$'`,
  );
  return new Map(rows.map((r) => [r.proname, r.v]));
}

describe('realtime check warmth', () => {
  it('leaves unchanged visibility functions alone when the triggers are synced again', async () => {
    const before = await versions();
    expect(before.size).toBeGreaterThanOrEqual(3); // conversations, messages, read_cursors at least
    await db.query('select local_stack.sync_realtime_triggers()');
    const after = await versions();
    for (const [name, v] of before) if (after.has(name)) expect(after.get(name), name).toBe(v);
  });

  it('warms a session without leaving claims or a role behind', async () => {
    await db.query('begin');
    try {
      await db.query('select local_stack.realtime_warm()');
      const { rows } = await db.query<{ role: string; claims: string | null; sub: string | null }>(
        `select current_setting('role') as role, nullif(current_setting('request.jwt.claims', true), '') as claims,
                nullif(current_setting('request.jwt.claim.sub', true), '') as sub`,
      );
      expect(rows[0]).toEqual({ role: 'none', claims: null, sub: null });
    } finally {
      await db.query('rollback');
    }
  });
});

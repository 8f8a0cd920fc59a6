// A deadlock in the local stack's PostgreSQL is shown in the stack's log with PostgreSQL's DETAIL
// (both processes, what each waits for, their statements): the aborted side only gets SQLSTATE 40P01
// (a 500 through PostgREST), and session 42 met one in a test without a way to tell whose it was.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../supabase/local/free-port.ts';
import { ensureTemplate } from '../../supabase/local/pg-template/cache.ts';
import { startEmbeddedPostgres } from '../../supabase/local/postgres.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const tempDir = tempDirs('poradna-deadlock-');

describe("the local stack's PostgreSQL log", () => {
  it('names both sides of a deadlock', async () => {
    const template = await ensureTemplate({ seed: true });
    const lines: string[] = [];
    const server = await startEmbeddedPostgres(await tempDir(), await freePort(), (line) => lines.push(line), { template: async () => template });
    const a = new pg.Client({ connectionString: server.url });
    const b = new pg.Client({ connectionString: server.url });
    try {
      await Promise.all([a.connect(), b.connect()]);
      await a.query('create table deadlock_probe (id int primary key, v int); insert into deadlock_probe values (1, 0), (2, 0)');
      await a.query('begin');
      await b.query('begin');
      await a.query('update deadlock_probe set v = 1 where id = 1');
      await b.query('update deadlock_probe set v = 1 where id = 2');
      // Each now waits for the other's row: PostgreSQL aborts one after deadlock_timeout (1 s).
      const outcomes = await Promise.allSettled([a.query('update deadlock_probe set v = 2 where id = 2'), b.query('update deadlock_probe set v = 2 where id = 1')]);
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0]!.reason as { code?: string }).code).toBe('40P01');
      await expect.poll(() => lines.join('\n'), { timeout: 10_000 }).toMatch(/deadlock detected[\s\S]*Process \d+ waits for ShareLock on transaction \d+; blocked by process \d+/);
    } finally {
      await Promise.all([a.end().catch(() => undefined), b.end().catch(() => undefined)]);
      await server.stop();
    }
  });
});

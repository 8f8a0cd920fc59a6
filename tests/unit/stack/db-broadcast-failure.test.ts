// The local realtime's Broadcast from the database (supabase/local/realtime/db-broadcast.ts) reads each
// noticed row in commit order: a read starts at once and is awaited when the reads before it are done.
// A read that fails first (a connect timeout of the stack's pool on a starved machine) must stay a
// logged, dropped broadcast — never an unhandled rejection, which ends the Node process running the
// whole stack (it ended a Vitest run's shared stacks in the clean-clone run of 551dd9d).
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DbBroadcaster } from '../../../supabase/local/realtime/db-broadcast.ts';
import type { ChannelRegistry } from '../../../supabase/local/realtime/channel-registry.ts';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('Broadcast from the database: a failed read', () => {
  it('is logged and dropped, not left unhandled while an earlier read is still pending', async () => {
    // Vitest's own handler would fail the run; this one counts, so the test names the cause.
    process.on('unhandledRejection', onUnhandled);
    let releaseFirst!: (r: pg.QueryResult) => void;
    const first = new Promise<pg.QueryResult>((r) => (releaseFirst = r));
    let calls = 0;
    const pool = {
      query: () => (++calls === 1 ? first : Promise.reject(new Error('timeout exceeded when trying to connect'))),
    } as unknown as pg.Pool;
    const lines: string[] = [];
    const registry = {} as ChannelRegistry;
    const b = new DbBroadcaster(registry, pool, (l) => lines.push(l));
    b.handle({ id: '00000000-0000-4000-8000-000000000001', insertedAt: '2026-11-28T15:00:00' });
    b.handle({ id: '00000000-0000-4000-8000-000000000002', insertedAt: '2026-11-28T15:00:00' });
    // Let the second read fail while the first still holds the tail, and the process notice it.
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
    releaseFirst({ rows: [] } as unknown as pg.QueryResult);
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatch(/dropped a database broadcast: timeout exceeded/);
    expect(unhandled).toEqual([]);
  });
});

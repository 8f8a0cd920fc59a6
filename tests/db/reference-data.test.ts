// What production gets: a database migrated without the demo seed (as `supabase db push` leaves a
// hosted project) has the plans, the assistant and the plans' specialists, and no demo login.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../supabase/local/migrate.ts';
import { ASSISTANT_ID } from './helpers.ts';
import { throwawayDb, type ThrowawayDb } from './throwaway-db.ts';

let target: ThrowawayDb;
let fresh: pg.Client;

beforeAll(async () => {
  target = await throwawayDb('ref');
  const result = await migrate(target.url, { seed: false, authenticatorPassword: target.authenticatorPassword });
  expect(result.seeded).toBe(false);
  fresh = new pg.Client({ connectionString: target.url });
  await fresh.connect();
});

afterAll(async () => {
  await fresh?.end();
  await target?.drop();
});

describe('reference data without the demo seed', () => {
  it('every plan includes specialists, the assistant exists, and there is no demo user or chat', async () => {
    const plans = (
      await fresh.query<{ code: string; n: string }>(
        `select p.code, count(ps.specialist_id) as n from public.plans p left join public.plan_specialists ps on ps.plan_id = p.id group by p.code order by 2`,
      )
    ).rows;
    expect(plans.map((p) => p.code)).toEqual(['FREE', 'PRO', 'ENTERPRISE']);
    for (const p of plans) expect(Number(p.n), p.code).toBeGreaterThan(0);
    expect((await fresh.query(`select 1 from public.specialists where id = $1 and is_assistant`, [ASSISTANT_ID])).rowCount).toBe(1);
    expect(Number((await fresh.query<{ n: string }>(`select count(*) as n from public.specialists where not is_assistant`)).rows[0]!.n)).toBeGreaterThanOrEqual(8);
    expect((await fresh.query(`select 1 from auth.users`)).rowCount).toBe(0);
    expect((await fresh.query(`select 1 from public.conversations`)).rowCount).toBe(0);
  });
});

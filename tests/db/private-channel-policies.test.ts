// The private-channel policies must exist where realtime.messages does (issue 41 part 2; the local stack
// has it too since supabase/local/sql/realtime-messages.sql): a platform
// that lets the migration owner add them gets them (20261123001000); one that refuses makes the
// migrations fail with what to do (20261129110200), instead of the old WARNING that left every private user:<id> relay join refused. A
// throwaway database gets a stand-in realtime.messages and realtime.topic() (supabase/realtime's
// names), owned by the superuser (refused) or by the migration owner (allowed).
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../supabase/local/migrate.ts';
import { closeDb, one } from './helpers.ts';
import { throwawayDb, type ThrowawayDb } from './throwaway-db.ts';

const REALTIME = `
  create schema realtime;
  create table realtime.messages (topic text not null, extension text not null, payload jsonb, inserted_at timestamptz default now());
  alter table realtime.messages enable row level security;
  create function realtime.topic() returns text language sql stable as $$ select current_setting('realtime.topic', true) $$;
  grant usage on schema realtime to migration_owner, authenticated;
  grant execute on function realtime.topic() to migration_owner, authenticated;`;

let fresh: ThrowawayDb | undefined;
afterEach(async () => {
  await fresh?.drop();
  fresh = undefined;
});

async function withRealtime(ownedByMigrationOwner: boolean): Promise<pg.Client> {
  fresh = await throwawayDb('rtpol');
  const db = new pg.Client({ connectionString: fresh.url });
  await db.connect();
  await db.query(REALTIME);
  if (ownedByMigrationOwner) await db.query(`alter table realtime.messages owner to migration_owner`);
  return db;
}

describe('private-channel policies on realtime.messages', () => {
  it("the local stack has hosted's realtime.messages (partitioned by day, RLS on) with both policies", async () => {
    expect(
      await one(`select c.relkind::text as kind, c.relrowsecurity as rls, c.relowner::regrole::text as owner
                   from pg_class c where c.oid = 'realtime.messages'::regclass`),
    ).toEqual({ kind: 'p', rls: true, owner: 'supabase_realtime_admin' });
    expect(
      await one(`select string_agg(policyname, ',' order by policyname) as names from pg_policies
                  where schemaname = 'realtime' and tablename = 'messages'`),
    ).toEqual({ names: 'poradna_topic_read,poradna_topic_write' });
  });

  it('a platform that refuses the policies fails the migrations with what to do (it only warned before)', async () => {
    const db = await withRealtime(false);
    await expect(migrate(fresh!.url, { seed: false, authenticatorPassword: fresh!.authenticatorPassword })).rejects.toThrow(
      /20261129110200_private_channel_policies_required\.sql failed: the realtime\.messages policies poradna_topic_read, poradna_topic_write are missing/,
    );
    await db.end();
  });

  it('a platform that allows them gets both policies', async () => {
    const db = await withRealtime(true);
    await migrate(fresh!.url, { seed: false, authenticatorPassword: fresh!.authenticatorPassword });
    const names = (await db.query<{ policyname: string }>(`select policyname from pg_policies where schemaname = 'realtime' order by 1`)).rows;
    expect(names.map((r) => r.policyname)).toEqual(['poradna_topic_read', 'poradna_topic_write']);
    await db.end();
  });
});

afterAll(async () => {
  await closeDb();
});

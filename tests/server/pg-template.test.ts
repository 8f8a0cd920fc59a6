// Throwaway stacks start on a copy of a migrated and seeded template cluster (issue 42,
// supabase/local/pg-template/): the copy must be what initdb + migrations + seed give at that moment,
// a cluster of its own, and a template must never outlive a change to what made it. The fresh stack
// here (pgTemplate: false) also keeps initdb + migrations + seed from empty running in every suite.
import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../supabase/local/free-port.ts';
import { repoRoot } from '../../supabase/local/migrate.ts';
import { shiftClock, type ClusterTemplate } from '../../supabase/local/pg-template/adopt.ts';
import { ensureTemplate } from '../../supabase/local/pg-template/cache.ts';
import { templateKey } from '../../supabase/local/pg-template/key.ts';
import { readSystemIdentifier } from '../../supabase/local/pg-template/system-identifier.ts';
import { startEmbeddedPostgres, type RunningPostgres } from '../../supabase/local/postgres.ts';
import { clusterFingerprint, type ClusterFingerprint } from '../helpers/cluster-fingerprint.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const tempDir = tempDirs('poradna-tpl-');
const migrations = join(repoRoot, 'supabase', 'migrations');

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows[0]!;
  } finally {
    await c.end();
  }
}

/** A cluster started on a copy of `template` in a new DATA_DIR, as a stack would start it. */
async function copyOf(template: ClusterTemplate): Promise<RunningPostgres> {
  return startEmbeddedPostgres(await tempDir(), await freePort(), () => undefined, { template: async () => template });
}

let fresh: TestStack;
let copied: TestStack;
let freshPrint: ClusterFingerprint;

beforeAll(async () => {
  fresh = await startTestStack({}, { pgTemplate: false });
  copied = await startTestStack({}, { pgTemplate: true });
  freshPrint = await clusterFingerprint(fresh.databaseUrl);
});
afterAll(async () => {
  await fresh?.destroy();
  await copied?.destroy();
});

// Two tests build a template from empty (initdb, every migration, the seed) and start clusters on it:
// 36-60 s of a busy machine in session 43's run, where the first touch of fresh memory cost ~3.3 s a
// GiB (three times a quiet run), past the group's 60 s per test. What they check is data, not time.
const BUILDS = 180_000;

describe('template clusters (issue 42)', () => {
  it('a stack on a copy has the cluster a fresh start makes: catalog, roles, grants, settings and seeded data', async () => {
    const print = await clusterFingerprint(copied.databaseUrl);
    expect(Object.keys(print.data).length).toBeGreaterThan(20);
    expect(print.data['public.messages']!.length).toBeGreaterThan(10);
    expect(print).toEqual(freshPrint);
  });

  it('every copy is a cluster of its own: system identifier, feed epoch and superuser password', async () => {
    const template = await ensureTemplate({ seed: true });
    const other = await startTestStack({}, { pgTemplate: true });
    try {
      const ids = await Promise.all(
        [copied, other].map((s) =>
          query<{ sysid: string; epoch: string }>(s.databaseUrl, `select system_identifier::text as sysid, private.feed_epoch() as epoch from pg_control_system()`),
        ),
      );
      expect(ids[0]!.sysid).not.toBe(ids[1]!.sysid);
      expect(ids[0]!.epoch).not.toBe(ids[1]!.epoch);
      expect([ids[0]!.sysid, ids[1]!.sysid]).not.toContain(String(await readSystemIdentifier(template.pgDir)));
      // The template's superuser password opens no copy; each stack's own does (it just ran the query).
      const u = new URL(other.databaseUrl);
      u.password = encodeURIComponent(template.password);
      await expect(query(u.toString(), 'select 1')).rejects.toThrow(/password authentication failed/);
      expect(new URL(other.databaseUrl).password).not.toBe(new URL(copied.databaseUrl).password);
    } finally {
      await other.destroy();
    }
  });

  it('a template built hours ago gives a copy whose data is as of now, as a fresh start is', async () => {
    const built = await ensureTemplate({ seed: true, cacheDir: await tempDir() });
    expect(built.built).toBe(true);
    // Age it 20 hours, as if built yesterday evening: every time moved back, the build time with them.
    const keyDir = dirname(built.pgDir);
    await writeFile(join(keyDir, 'db.json'), JSON.stringify({ password: built.password }));
    const server = await startEmbeddedPostgres(keyDir, await freePort(), () => undefined);
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    const future = (await c.query<{ t: string }>(`select (now() + interval '20 hours')::text as t`)).rows[0]!.t;
    await shiftClock(c, future);
    const aged: ClusterTemplate = {
      ...built,
      builtAt: (await c.query<{ t: string }>(`select (seeded_at)::text as t from local_stack.seeded`)).rows[0]!.t,
    };
    expect(await query<{ h: number }>(server.url, `select (extract(epoch from now() - seeded_at) / 3600)::float8 as h from local_stack.seeded`)).toEqual({ h: expect.closeTo(20, 0) });
    await c.end();
    await server.stop();

    const copy = await copyOf(aged);
    try {
      // The demo's "12 hours ago" chat is 12 hours old now, not 32.
      const r = await query<{ seeded: number; michal: number }>(
        copy.url,
        `select extract(epoch from now() - (select seeded_at from local_stack.seeded))::float8 as seeded,
                (extract(epoch from now() - created_at) / 3600)::float8 as michal
           from public.conversations where id = '00000000-0000-4000-b000-000000000006'`,
      );
      expect(r.seeded).toBeLessThan(60);
      expect(r.michal).toBeCloseTo(12, 1);
      // realtime.messages' daily partitions are named by the UTC day of each start (the janitor's
      // window, sql/realtime-messages.sql): a run crossing midnight took the fresh print on one day
      // and the copy's on the next (session 48). They are compared apart: the copy holds the window
      // of the day it started, as a fresh start would.
      expect(withoutDailyPartitions(await clusterFingerprint(copy.url))).toEqual(withoutDailyPartitions(freshPrint));
      const partitions = await query<{ missing: number }>(
        copy.url,
        `select count(*)::int as missing from generate_series((now() at time zone 'utc')::date - 1, (now() at time zone 'utc')::date + 3, '1 day') d
          where to_regclass('realtime.messages_' || to_char(d, 'YYYY_MM_DD')) is null`,
      );
      expect(partitions.missing).toBe(0);
    } finally {
      await copy.stop();
    }
  }, BUILDS);

  it('the key covers every migration, the seed and the day; a changed migration builds a new template once, for every starter at once', async () => {
    const altered = await tempDir();
    await cp(migrations, altered, { recursive: true });
    const base = await templateKey({ seed: true, migrationsDir: altered });
    expect(await templateKey({ seed: true })).toBe(base); // same content, same key
    expect(await templateKey({ seed: false, migrationsDir: altered })).not.toBe(base);
    expect(await templateKey({ seed: true, migrationsDir: altered, day: '2000-01-01' })).not.toBe(base);
    const seedCopy = join(await tempDir(), 'seed.sql');
    await writeFile(seedCopy, '-- another seed\n');
    expect(await templateKey({ seed: true, migrationsDir: altered, seedFile: seedCopy })).not.toBe(base);
    const last = (await readdir(altered)).filter((f) => f.endsWith('.sql')).sort().at(-1)!;
    await writeFile(join(altered, last), '\n-- a changed line\n', { flag: 'a' });
    const changed = await templateKey({ seed: true, migrationsDir: altered });
    expect(changed).not.toBe(base);
    await writeFile(join(altered, '29991231000000_template_probe.sql'), 'create table public.template_probe (id int);\n');
    const added = await templateKey({ seed: true, migrationsDir: altered });
    expect(new Set([base, changed, added]).size).toBe(3);

    // Three starters at once on an empty cache: one builds, all get the same finished template.
    const cacheDir = join(await tempDir(), 'cache');
    await mkdir(cacheDir);
    const got = await Promise.all([1, 2, 3].map(() => ensureTemplate({ seed: true, migrationsDir: altered, cacheDir })));
    expect(got.filter((t) => t.built)).toHaveLength(1);
    expect(new Set(got.map((t) => t.pgDir)).size).toBe(1);
    expect(got[0]!.key).toBe(added);
    expect((await readdir(cacheDir)).filter((n) => !n.startsWith(added))).toEqual([]);
    const copy = await copyOf(got[0]!);
    try {
      expect(await query(copy.url, `select to_regclass('public.template_probe')::text as t`)).toEqual({ t: 'template_probe' });
      expect(await query(copy.url, `select count(*)::int as n from local_stack.schema_migrations where version = '29991231000000_template_probe.sql'`)).toEqual({ n: 1 });
    } finally {
      await copy.stop();
    }
  }, BUILDS);
});

const DAILY_PARTITION = /^realtime\.messages_\d{4}_\d{2}_\d{2}\b/;

/** A fingerprint without realtime.messages' daily partitions (their names carry the day of the start). */
function withoutDailyPartitions(p: ClusterFingerprint): ClusterFingerprint {
  return {
    catalog: Object.fromEntries(Object.entries(p.catalog).map(([k, lines]) => [k, lines.filter((l) => !DAILY_PARTITION.test(l))])),
    data: Object.fromEntries(Object.entries(p.data).filter(([table]) => !DAILY_PARTITION.test(table))),
  };
}

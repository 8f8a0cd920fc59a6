// The real migrations on an empty database (created on the stack's server), and a second run that
// changes nothing. The schema is compared through a catalog fingerprint: tables and columns,
// indexes, constraints, policies, functions (body, security, settings), triggers, grants, the
// realtime publication and the reference data.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate, repoRoot } from '../../supabase/local/migrate.ts';
import { stack } from './helpers.ts';
import { throwawayDb, type ThrowawayDb } from './throwaway-db.ts';

let target: ThrowawayDb;
let freshUrl: string;
let authenticatorPassword: string;

async function fingerprint(url: string): Promise<Record<string, unknown[]>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = async (sql: string) => (await c.query(sql)).rows as unknown[];
  try {
    return {
      columns: await q(`select table_schema, table_name, column_name, data_type, is_nullable, column_default
                          from information_schema.columns where table_schema in ('public', 'private')
                         order by 1, 2, 3`),
      indexes: await q(`select schemaname, tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2, 3`),
      constraints: await q(`select conrelid::regclass::text as rel, conname, pg_get_constraintdef(oid) as def from pg_constraint
                             where connamespace = 'public'::regnamespace order by 1, 2`),
      rls: await q(`select relname, relrowsecurity from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`),
      policies: await q(`select tablename, policyname, cmd, roles::text, qual, with_check from pg_policies where schemaname = 'public' order by 1, 2`),
      functions: await q(`select n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) as args, md5(p.prosrc) as body,
                                 p.prosecdef, p.provolatile, p.proconfig::text, p.proacl::text
                            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                           where n.nspname in ('public', 'private') order by 1, 2, 3`),
      triggers: await q(`select tgrelid::regclass::text as rel, tgname, pg_get_triggerdef(oid) as def from pg_trigger
                          where not tgisinternal order by 1, 2`),
      grants: await q(`select table_name, grantee, privilege_type from information_schema.role_table_grants
                        where table_schema = 'public' order by 1, 2, 3`),
      publication: await q(`select schemaname, tablename from pg_publication_tables where pubname = 'supabase_realtime' order by 1, 2`),
      plans: await q(`select code, name from public.plans order by code`),
      specialists: await q(`select id, name, is_ai, is_assistant from public.specialists order by id`),
      migrations: await q(`select version, checksum from local_stack.schema_migrations order by version`),
    };
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  target = await throwawayDb('mig');
  ({ url: freshUrl, authenticatorPassword } = target);
});

afterAll(async () => {
  await target?.drop();
});

describe('migrations', () => {
  it('apply to an empty database with the seed, and a second run changes nothing', async () => {
    const files = await listMigrations();
    const first = await migrate(freshUrl, { seed: true, authenticatorPassword });
    expect(first.applied).toEqual(files);
    expect(first.seeded).toBe(true);
    expect(first.changedAfterApply).toEqual([]);

    const before = await fingerprint(freshUrl);
    // Every public table has RLS, the chat tables are published, reference data is there.
    expect((before.rls as { relrowsecurity: boolean }[]).every((r) => r.relrowsecurity)).toBe(true);
    expect(before.publication).toEqual(
      expect.arrayContaining([
        { schemaname: 'public', tablename: 'conversations' },
        { schemaname: 'public', tablename: 'messages' },
        { schemaname: 'public', tablename: 'read_cursors' },
      ]),
    );
    expect((before.plans as { code: string }[]).map((p) => p.code)).toEqual(['ENTERPRISE', 'FREE', 'PRO']);

    const second = await migrate(freshUrl, { seed: true, authenticatorPassword });
    expect(second).toEqual({ applied: [], seeded: false, changedAfterApply: [] });
    expect(await fingerprint(freshUrl)).toEqual(before);
    // The stack's own PostgREST still logs in (the authenticator verifier was kept).
    const res = await fetch(`${stack.url}/rest/v1/plans?select=code`, { headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` } });
    expect(res.status).toBe(200);
  });

  it('a database from the old bootstrap (superuser-owned, default grants) becomes strict on the next start', async () => {
    const c = new pg.Client({ connectionString: freshUrl });
    await c.connect();
    try {
      // What the old bootstrap left: migrations owned by the superuser, everything granted by default.
      await c.query(`
        do $$ declare r record; begin
          for r in select c.oid::regclass as t from pg_class c where c.relnamespace in ('public'::regnamespace, 'private'::regnamespace) and c.relkind in ('r', 'v') loop
            execute format('alter table %s owner to current_user', r.t);
          end loop;
          for r in select p.oid::regprocedure as f from pg_proc p where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace) loop
            execute format('alter function %s owner to current_user', r.f);
          end loop;
        end $$;
        alter schema private owner to current_user;
        alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
        alter default privileges in schema public grant all on functions to anon, authenticated, service_role;`);
      await migrate(freshUrl, { seed: true, authenticatorPassword });
      const notOwned = await c.query(
        `select relname from pg_class where relnamespace in ('public'::regnamespace, 'private'::regnamespace) and relkind in ('r', 'v') and relowner <> 'migration_owner'::regrole
         union all select proname from pg_proc where pronamespace in ('public'::regnamespace, 'private'::regnamespace) and proowner <> 'migration_owner'::regrole`,
      );
      expect(notOwned.rows).toEqual([]);
      const defaults = await c.query(
        `select 1 from pg_default_acl d, aclexplode(d.defaclacl) a where a.grantee in ('anon'::regrole, 'authenticated'::regrole, 'service_role'::regrole)`,
      );
      expect(defaults.rows).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('the realtime publication step is harmless when run again', async () => {
    const file = (await listMigrations()).find((f) => f.endsWith('_realtime_publication.sql'))!;
    const sql = await readFile(join(repoRoot, 'supabase', 'migrations', file), 'utf8');
    const c = new pg.Client({ connectionString: freshUrl });
    await c.connect();
    try {
      const before = (await c.query('select tablename from pg_publication_tables order by 1')).rows;
      await c.query(sql);
      expect((await c.query('select tablename from pg_publication_tables order by 1')).rows).toEqual(before);
    } finally {
      await c.end();
    }
  });

  it('pin search_path in every SECURITY DEFINER function', async () => {
    const c = new pg.Client({ connectionString: freshUrl });
    await c.connect();
    try {
      const definers = (
        await c.query<{ name: string; config: string[] | null }>(
          `select n.nspname || '.' || p.proname as name, p.proconfig as config
             from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where p.prosecdef and n.nspname in ('public', 'private')`,
        )
      ).rows;
      expect(definers.length).toBeGreaterThan(20);
      const unpinned = definers.filter((d) => !(d.config ?? []).some((s) => s.startsWith('search_path=')));
      expect(unpinned).toEqual([]);
    } finally {
      await c.end();
    }
  });

  // Hosted's Security Advisor warns on any function of the app's schemas whose search_path is not
  // pinned to '' (supabase/splinter lints/0011_function_search_path_mutable.sql: every schema but
  // the platform's, functions of extensions excepted). A project deployed from these migrations
  // shows none: SECURITY INVOKER helpers too, even where the pin keeps the planner from inlining one.
  it("pin search_path to '' in every function of public and private (Security Advisor lint 0011)", async () => {
    const c = new pg.Client({ connectionString: freshUrl });
    await c.connect();
    try {
      const fns = (
        await c.query<{ name: string; config: string[] | null }>(
          `select n.nspname || '.' || p.proname as name, p.proconfig as config
             from pg_proc p join pg_namespace n on n.oid = p.pronamespace
             left join pg_depend dep on dep.objid = p.oid and dep.deptype = 'e'
            where n.nspname in ('public', 'private') and dep.objid is null`,
        )
      ).rows;
      expect(fns.length).toBeGreaterThan(50);
      const mutable = fns.filter((f) => !(f.config ?? []).includes('search_path=""')).map((f) => f.name);
      expect(mutable).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('are portable: no reference to the local stack', async () => {
    for (const f of await listMigrations()) {
      const sql = await readFile(join(repoRoot, 'supabase', 'migrations', f), 'utf8');
      expect(sql, f).not.toMatch(/local_stack/);
    }
  });
});

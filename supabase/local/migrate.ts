// Applies the bootstrap SQL, then supabase/migrations/*.sql in order (recording each), then the seed on
// a fresh database. Invariant: a migration runs at most once per database, inside its own transaction,
// and a changed file that already ran is reported, never silently re-run. Migrations and the seed run
// as `migration_owner`, a non-superuser like `postgres` on a hosted project (supabase db push connects
// as `postgres`; supabase/postgres migrations/db/migrations/10000000000000_demote-postgres.sql), with
// the search_path Supabase gives that role (init-scripts/00000000000003-post-setup.sql).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
  changedAfterApply: string[];
}

const here = import.meta.dirname;
export const repoRoot = join(here, '..', '..');
const migrationsDir = join(repoRoot, 'supabase', 'migrations');
const seedFile = join(repoRoot, 'supabase', 'seed.sql');

/** Runs inside an open transaction: what follows executes as the migration owner until `reset role`. */
export const AS_MIGRATION_OWNER = `set local role migration_owner; set local search_path = "$user", public, extensions`;

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function listMigrations(dir = migrationsDir): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  } catch {
    return [];
  }
}

export async function migrate(
  databaseUrl: string,
  opts: { seed: boolean; authenticatorPassword: string; migrationsDir?: string; seedFile?: string },
): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrateResult = { applied: [], seeded: false, changedAfterApply: [] };
  try {
    // One migrator at a time per database (two stacks on one DATABASE_URL must not interleave).
    await client.query('select pg_advisory_lock(7306001)');
    await client.query(await readFile(join(here, 'sql', 'bootstrap.sql'), 'utf8'));
    await client.query(await readFile(join(here, 'sql', 'auth-extras.sql'), 'utf8'));
    await client.query(await readFile(join(here, 'sql', 'realtime.sql'), 'utf8'));
    await client.query(await readFile(join(here, 'sql', 'realtime-messages.sql'), 'utf8'));
    await client.query(await readFile(join(here, 'storage', 'schema.sql'), 'utf8'));
    await client.query(`alter role authenticator with login password ${pg.escapeLiteral(opts.authenticatorPassword)}`);

    const done = new Map<string, string>(
      (await client.query<{ version: string; checksum: string }>('select version, checksum from local_stack.schema_migrations'))
        .rows.map((r) => [r.version, r.checksum]),
    );
    const dir = opts.migrationsDir ?? migrationsDir;
    for (const file of await listMigrations(dir)) {
      const sql = await readFile(join(dir, file), 'utf8');
      const prev = done.get(file);
      if (prev !== undefined) {
        if (prev !== sha(sql)) result.changedAfterApply.push(file);
        continue;
      }
      try {
        await client.query('begin');
        await client.query(AS_MIGRATION_OWNER);
        await client.query(sql);
        await client.query('reset role');
        await client.query('insert into local_stack.schema_migrations (version, checksum) values ($1, $2)', [file, sha(sql)]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        const e = err as Error & { position?: string };
        throw new Error(`migration ${file} failed: ${e.message}${e.position ? ` (at character ${e.position})` : ''}`, { cause: err });
      }
      result.applied.push(file);
    }

    await client.query('select local_stack.sync_realtime_triggers()');

    const seeded = (await client.query('select 1 from local_stack.seeded')).rowCount! > 0;
    if (opts.seed && !seeded) {
      let seedSql: string | undefined;
      try {
        seedSql = await readFile(opts.seedFile ?? seedFile, 'utf8');
      } catch {
        seedSql = undefined;
      }
      await client.query('begin');
      try {
        if (seedSql) {
          await client.query(AS_MIGRATION_OWNER);
          await client.query(seedSql);
          await client.query('reset role');
        }
        await client.query('insert into local_stack.seeded default values');
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw new Error(`seed.sql failed: ${(err as Error).message}`, { cause: err });
      }
      result.seeded = Boolean(seedSql);
    }
    await client.query(`notify pgrst, 'reload schema'`);
  } finally {
    await client.query('select pg_advisory_unlock_all()').catch(() => undefined);
    await client.end();
  }
  return result;
}

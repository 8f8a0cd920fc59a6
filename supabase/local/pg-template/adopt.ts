// Makes a copy of a template cluster (pg-template/cache.ts) this stack's own, so that it is what initdb
// + migrations + seed would have given at this moment. What differs per stack, and where it is set:
//   system identifier       renewed in the copied files before the server starts (system-identifier.ts)
//   superuser password      the template's is replaced by a fresh one (here); db.json gets the new one
//   authenticator password  migrate() sets it on every start, as for any DATA_DIR (stack.ts)
//   the clock               every timestamp the build wrote (seed rows, reference data, bookkeeping) was
//                           now() of the build: moved forward by (now − build time), triggers off (here)
//   realtime partitions     named by day: the template key holds the UTC date (key.ts), and migrate()
//                           runs the partition janitor on every start
//   port, sockets, limits   command-line flags of every server start (postgres.ts); the copied
//                           postgresql.conf and postgresql.auto.conf hold nothing per stack
//   keys, secrets, VAPID    files of DATA_DIR outside the cluster, made by stack.ts as for any start
// Nothing in the migrations or seed reads a per-stack secret (no Vault locally: the functions-call
// helpers find no vault.decrypted_secrets and return null; checked session 31).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A built template as the cache hands it out. */
export interface ClusterTemplate {
  /** The template's data directory (never started, never written to after the build). */
  pgDir: string;
  /** The template's superuser password; replaced in every copy. */
  password: string;
  /** The build's "now" (timestamptz text): the seed's now() (local_stack.seeded), else the last migration's. */
  builtAt: string;
}

/**
 * Copies the template's data directory to pgDir (which must not exist). `cp -a`: owner and modes kept
 * (as root the files belong to the `postgres` user; PostgreSQL wants 0700 on the directory). A full
 * copy, never hard links: the server writes into its files. `--sparse=always`: the zeros of the WAL
 * segment and of empty pages become holes, which read back as the same zeros (PostgreSQL writes a
 * WAL segment's pages in place, and a zero page ends WAL as it would in a zero-filled file).
 */
export async function copyCluster(template: ClusterTemplate, pgDir: string): Promise<void> {
  await run('cp', ['-a', '--reflink=auto', '--sparse=always', template.pgDir, pgDir]);
}

/**
 * Moves every timestamp of the cluster's tables by `now() − since` (triggers off: nothing is a change
 * to announce, nothing a row guard should judge). A partitioned table is updated through its parent,
 * so a row whose new time belongs to another partition (realtime.messages, by day) moves there.
 * Exported for the test that ages a template.
 */
export async function shiftClock(client: pg.Client, since: string): Promise<void> {
  await client.query('begin');
  try {
    await client.query('set local session_replication_role = replica');
    await client.query(`
      do $shift$
      declare
        v_delta interval := now() - ${pg.escapeLiteral(since)}::timestamptz;
        r record;
      begin
        for r in
          select c.oid::regclass as tbl,
                 string_agg(format('%1$I = %1$I + $1', a.attname), ', ' order by a.attnum) as sets
            from pg_catalog.pg_class c
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            join pg_catalog.pg_attribute a on a.attrelid = c.oid
           where c.relkind in ('r', 'p') and not c.relispartition
             and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_toast'
             and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
             and a.atttypid in ('timestamptz'::regtype, 'timestamp'::regtype)
           group by c.oid
        loop
          execute format('update %s set %s', r.tbl, r.sets) using v_delta;
        end loop;
      end $shift$`);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
}

/** On the copy's running server: the superuser's new password, and the clock moved to now. */
export async function adoptCopy(url: string, template: ClusterTemplate, newPassword: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await shiftClock(client, template.builtAt);
    await client.query(`alter role postgres with password ${pg.escapeLiteral(newPassword)}`);
  } finally {
    await client.end();
  }
}

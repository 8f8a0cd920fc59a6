// An empty database of its own on the stack's PostgreSQL server, for tests that run the migrations
// themselves (migrations, reference data, the hosted-extensions stand-ins), dropped when done.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { stack } from './helpers.ts';

export interface ThrowawayDb {
  /** Superuser URL of the new database. */
  url: string;
  /**
   * The running stack's authenticator verifier. Roles are cluster-wide: handing it to migrate() makes
   * its ALTER ROLE store the very same verifier, so the running stack's PostgREST keeps logging in.
   */
  authenticatorPassword: string;
  /** Ends the database's sessions and drops it. */
  drop(): Promise<void>;
}

export async function throwawayDb(prefix: string): Promise<ThrowawayDb> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: stack.databaseUrl });
  await admin.connect();
  // One throwaway database at a time on a cluster, held until drop() (admin's session ends): migrate()
  // alters the cluster-wide roles (ALTER ROLE, GRANT), and two files migrating side by side (two Vitest
  // workers, session 33) failed with 'tuple concurrently updated'.
  await admin.query(`select pg_advisory_lock(hashtext('poradna:throwaway-db'))`);
  await admin.query(`create database ${name}`);
  const u = new URL(stack.databaseUrl);
  u.pathname = `/${name}`;
  const authenticatorPassword = (await admin.query<{ rolpassword: string }>(`select rolpassword from pg_authid where rolname = 'authenticator'`)).rows[0]!
    .rolpassword;
  return {
    url: u.toString(),
    authenticatorPassword,
    async drop() {
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [name]);
      // Bounded: once (session 33, two files at a time) this teardown hung until its hook's 120 s
      // limit. DROP DATABASE waits for every backend of the cluster to absorb a barrier, and a backend
      // that cannot (blocked writing to a client that does not read) holds it for good. The database
      // lives in a throwaway cluster deleted with its stack, so a drop that cannot finish is reported
      // with what the cluster was doing, and left to that deletion.
      await admin.query(`set statement_timeout = '20s'`);
      try {
        await admin.query(`drop database if exists ${name}`);
      } catch (err) {
        const activity = await admin
          .query(`select pid, datname, state, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity where pid <> pg_backend_pid()`)
          .then((r): unknown => r.rows, (e: unknown) => String(e));
        console.warn(`throwaway database ${name} not dropped (${(err as Error).message}); left to the stack's deletion. Backends:`, activity);
      }
      await admin.end();
    },
  };
}

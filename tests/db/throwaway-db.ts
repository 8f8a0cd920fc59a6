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
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}

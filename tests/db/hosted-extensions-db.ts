// A throwaway database with stand-ins for what hosted Supabase has and the local stack does not:
// pg_cron, pg_net and Vault, with their real signatures (cron.schedule(text, text, text), the columns of
// cron.job_run_details that matter,
// net.http_post(url, body, params, headers, timeout_milliseconds), vault.decrypted_secrets), that
// record the calls; then every migration with the seed. Used by the schedule tests of the AI
// worker and push dispatch.
import pg from 'pg';
import { migrate } from '../../supabase/local/migrate.ts';
import { throwawayDb } from './throwaway-db.ts';

const STAND_INS = `
  create schema cron;
  create table cron.job (jobid bigserial, jobname text unique, schedule text, command text, username text default current_user);
  create table cron.job_run_details (jobid bigint, runid bigserial, username text default current_user, command text,
                                     status text, start_time timestamptz, end_time timestamptz);
  create function cron.schedule(job_name text, schedule text, command text) returns bigint language sql as $$
    insert into cron.job (jobname, schedule, command) values (job_name, schedule, command)
    on conflict (jobname) do update set schedule = excluded.schedule, command = excluded.command returning jobid $$;
  create schema net;
  create table net.requests (id bigserial, url text, body jsonb, headers jsonb, timeout_milliseconds int);
  create function net.http_post(url text, body jsonb default '{}', params jsonb default '{}',
                                headers jsonb default '{}', timeout_milliseconds integer default 5000)
  returns bigint language sql as $$
    insert into net.requests (url, body, headers, timeout_milliseconds) values (url, body, headers, timeout_milliseconds) returning id $$;
  create schema vault;
  create table vault.secrets (name text primary key, secret text);
  create view vault.decrypted_secrets as select name, secret as decrypted_secret from vault.secrets;
  create function vault.create_secret(new_secret text, new_name text default null, new_description text default '',
                                      new_key_id uuid default null) returns uuid language sql as $$
    insert into vault.secrets (name, secret) values (new_name, new_secret) returning gen_random_uuid() $$;
  grant usage on schema cron, net, vault to migration_owner;
  grant all on all tables in schema cron, net, vault to migration_owner;
  grant all on all sequences in schema cron, net to migration_owner;`;

export interface HostedExtensionsDb {
  /** A client on the throwaway database. */
  db: pg.Client;
  /** Its superuser URL, for a test that needs a connection of its own (e.g. acting as a member). */
  url: string;
  drop(): Promise<void>;
}

export async function hostedExtensionsDb(prefix: string): Promise<HostedExtensionsDb> {
  const fresh = await throwawayDb(prefix);
  const db = new pg.Client({ connectionString: fresh.url });
  await db.connect();
  await db.query(STAND_INS);
  await migrate(fresh.url, { seed: true, authenticatorPassword: fresh.authenticatorPassword });
  return {
    db,
    url: fresh.url,
    async drop() {
      await db.end();
      await fresh.drop();
    },
  };
}

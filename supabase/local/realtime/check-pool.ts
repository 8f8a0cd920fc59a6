// The realtime service's own connections for the RLS checks of changes (the hop NOTIFY received →
// frame sent). Invariants:
// - A change's check never waits behind the rest of the stack (auth, workers, joins): those use the
//   stack's shared pool, this pool serves change delivery only.
// - Connections stay open (no idle timeout): PostgreSQL compiles the PL/pgSQL visibility functions,
//   plans their queries and loads the catalog entries they touch once per session, 20-70 ms on a new
//   connection's first check of a table against ~1 ms once warm (measured on this 2-core machine);
//   the shared pool's 10 s idle timeout kept handing changes to fresh, cold connections.
// - Every connection runs local_stack.realtime_warm() (supabase/local/sql/realtime.sql) before it
//   serves its first check, and all of them are opened at start, so the first change after a start
//   (or after PostgreSQL came back) does not pay that cost.
// Hosted Realtime does the same with one connection of its own per tenant (supabase/realtime,
// lib/extensions/postgres_cdc_rls/replication_poller.ex: connect_db, application_name "realtime_rls").
import pg from 'pg';
import { hearConnectionErrors } from '../pool-errors.ts';

/** Connections for change checks: enough to overlap a send's few events and split a wide fan-out. */
export const CHECK_CONNECTIONS = 4;
export const CHECK_APP_NAME = 'poradna-realtime-rls';

export function createCheckPool(databaseUrl: string, log: (line: string) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: CHECK_CONNECTIONS,
    idleTimeoutMillis: 0,
    application_name: CHECK_APP_NAME,
  });
  // A dropped idle connection (PostgreSQL restarted) is replaced on the next check.
  pool.on('error', (err) => log(`realtime: check connection: ${err.message}`));
  hearConnectionErrors(pool, log, 'realtime: check connection');
  pool.on('connect', (client) => {
    // Queued on the client before anything the pool hands it out for.
    client.query('select local_stack.realtime_warm()').catch((err: Error) => {
      log(`realtime: warming a check connection failed: ${err.message}`);
    });
  });
  return pool;
}

/** Opens every connection of the pool now (each warms itself), without blocking the caller. */
export function fillCheckPool(pool: pg.Pool, log: (line: string) => void): Promise<void> {
  const clients = Array.from({ length: CHECK_CONNECTIONS }, () => pool.connect());
  return Promise.allSettled(clients).then((results) => {
    for (const r of results) {
      if (r.status === 'fulfilled') r.value.release();
      else log(`realtime: cannot open a check connection yet: ${(r.reason as Error).message}`);
    }
  });
}

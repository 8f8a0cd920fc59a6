// A pool's connections must never throw an 'error' event nobody hears. pg-pool listens on a
// connection only while it sits idle (pg-pool index.js: _acquireClient removes that listener when it
// hands the connection out). A connection held by a transaction between two queries (auth's withTx
// around password hashing, storage's asCaller around file I/O) that PostgreSQL drops there — kill -9
// of the postmaster makes every backend send FATAL "terminating connection due to unexpected postmaster
// exit" unasked — emitted 'error' with no listener: an uncaught exception that took down the process
// holding the stack (a Playwright worker in the faults journey). Invariant: every connection of a
// stack pool has a listener for its whole life; the query in flight or the next one still fails, so
// the caller sees the error, and pg-pool drops the broken connection on release (!client._queryable).
import type pg from 'pg';

export function hearConnectionErrors(pool: pg.Pool, log: (line: string) => void, name: string): pg.Pool {
  pool.on('connect', (client) => {
    client.on('error', (err) => log(`${name}: connection lost while in use: ${err.message}`));
  });
  return pool;
}

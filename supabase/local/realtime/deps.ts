// What the realtime service needs from the stack.
import type pg from 'pg';
import type { StackKeys, VerifyingKeys } from '../keys.ts';

export interface RealtimeDeps {
  /** Superuser pool; RLS checks switch role per subscriber inside a transaction. */
  pool: pg.Pool;
  /** Superuser connection string, for the dedicated LISTEN connection. */
  databaseUrl: string;
  /** The signing key is optional so tests can run a realtime server on the legacy secret alone. */
  keys: Omit<StackKeys, 'signingKey'> & VerifyingKeys;
  log: (line: string) => void;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed; default 60 s. */
  idleTimeoutMs?: number;
}

// What the realtime service needs from the stack.
import type pg from 'pg';
import type { StackKeys, VerifyingKeys } from '../keys.ts';
import type { RealtimeLimits } from './limits.ts';

export interface RealtimeDeps {
  /** Superuser pool; RLS checks switch role per subscriber inside a transaction. */
  pool: pg.Pool;
  /** Superuser connection string, for the dedicated LISTEN connection. */
  databaseUrl: string;
  /** Tests: the LISTEN connection's application_name, to tell this server's from others on one database. */
  listenerAppName?: string;
  /** The signing key is optional so tests can run a realtime server on the legacy secret alone. */
  keys: Omit<StackKeys, 'signingKey'> & VerifyingKeys & { legacyDisabled?: boolean };
  log: (line: string) => void;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed; default 60 s. */
  idleTimeoutMs?: number;
  /** Flood limits (issue 36 N4); hosted's values by default (limits.ts). */
  limits?: Partial<RealtimeLimits>;
  /** Count sockets per first X-Forwarded-For hop (TRUST_X_FORWARDED_FOR) rather than per peer. */
  trustForwardedFor?: boolean;
  /** Called after each change's frames are handed to the sockets (measurement: bench, tests). */
  onDelivery?: (d: DeliveryTiming) => void;
}

/** One change's hop through this server: NOTIFY received → frames sent (performance.now() times). */
export interface DeliveryTiming {
  schema: string;
  table: string;
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  notifiedAt: number;
  /**
   * Its frames were ready (catalog, RLS check, encoding done); sentAt - preparedAt is the wait for
   * earlier changes bound for the same sockets (order, dispatcher.ts).
   */
  preparedAt: number;
  sentAt: number;
  /** Frames sent for this change (0: nobody could see it). */
  frames: number;
  /** The row's primary key, as in the NOTIFY payload (lets a measurement find its own change). */
  pk: Record<string, unknown>;
  /**
   * The payload's commit_timestamp: clock_timestamp() in the row's AFTER trigger, i.e. the row
   * written, just before its transaction commits (ISO, microseconds, UTC; same machine clock).
   */
  commitTimestamp: string;
}

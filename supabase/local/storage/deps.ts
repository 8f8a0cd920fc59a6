// What the storage routes share: the pool (connected as the platform's admin; asCaller() drops to
// the caller's role), the object store, and the keys tokens are verified with.
import type { Context } from 'hono';
import type pg from 'pg';
import type { VerifyingKeys } from '../keys.ts';
import { callerFrom, type Caller } from './caller.ts';
import type { ObjectStore } from './store.ts';

export interface StorageDeps {
  pool: pg.Pool;
  store: ObjectStore;
  keys: VerifyingKeys;
  /** Signs and verifies signed-URL tokens (the project's JWT secret, as hosted). */
  jwtSecret: string;
  dataDir: string;
}

export function asCallerOf(c: Context, deps: StorageDeps): Promise<Caller> {
  return callerFrom(c.req.header('authorization'), deps.keys);
}

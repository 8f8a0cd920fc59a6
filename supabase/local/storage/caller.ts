// Who is calling, and running SQL as them. Hosted Storage verifies the `authorization` bearer token
// with the project's keys and runs every object query inside a transaction that sets the token's
// role and `request.jwt.claims` (supabase/storage src/http/plugins/jwt.ts, src/internal/database/
// connection.ts), so the RLS policies on storage.objects decide — never a check written here.
// Invariant: a query given to asCaller() runs as the caller's role with the caller's claims, and
// nothing it did survives an error (the transaction rolls back).
import type pg from 'pg';
import type { VerifyingKeys } from '../keys.ts';
import { verifyToken } from '../realtime/jwt.ts';
import { errors, fromPg, StorageError } from './errors.ts';

export interface Caller {
  role: string;
  claims: Record<string, unknown>;
  /** The user id (`sub`), when the token is a user's. */
  sub: string | undefined;
}

export async function callerFrom(authorization: string | undefined, keys: VerifyingKeys): Promise<Caller> {
  if (!authorization) throw errors.missingAuth();
  const m = /^bearer\s+(.+)$/i.exec(authorization.trim());
  if (!m) throw errors.invalidJwt();
  const verified = await verifyToken(m[1]!, keys);
  if (!verified.ok) throw errors.invalidJwt(verified.reason);
  const { claims, role } = verified.token;
  return { role, claims, sub: typeof claims.sub === 'string' ? claims.sub : undefined };
}

export async function asCaller<T>(pool: pg.Pool, caller: Caller, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  try {
    await db.query('begin');
    await db.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)`,
      [caller.role, JSON.stringify(caller.claims), caller.sub ?? ''],
    );
    const result = await fn(db);
    await db.query('commit');
    return result;
  } catch (err) {
    await db.query('rollback').catch(() => undefined);
    if (err instanceof StorageError) throw err;
    throw fromPg(err) ?? err;
  } finally {
    db.release();
  }
}

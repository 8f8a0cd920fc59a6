// Transactions on the superuser pool. Every multi-step change to auth rows (rotation, verification,
// sign-up) runs in one, so a crash or a concurrent request never sees half of it.
import type pg from 'pg';
import { emailExists } from './errors.ts';

export type Db = pg.Pool | pg.PoolClient;

export async function withTx<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * withTx for a change that gives a user an e-mail address: when a concurrent request registered the
 * same address first (the unique index refuses the second), the answer is GoTrue's 422 email_exists.
 */
export async function withTxNewEmail<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    return await withTx(pool, fn);
  } catch (err) {
    if (isUniqueViolation(err)) throw emailExists();
    throw err;
  }
}

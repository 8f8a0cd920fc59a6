// A sync file on its project's shared stack (tests/helpers/global-stack.ts): the stack, and a pool on
// its database opened before the file's tests and closed after them.
import type pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { ProvidedStack } from '../../helpers/global-stack.ts';
import { pool } from './server-db.ts';

export function onSharedStack(): { stack: () => ProvidedStack; db: () => pg.Pool } {
  let stack: ProvidedStack | null = null;
  let db: pg.Pool | null = null;
  beforeAll(() => {
    stack = inject('stack');
    db = pool(stack.databaseUrl);
  });
  afterAll(async () => {
    await db?.end();
  });
  const ready = <T>(v: T | null): T => {
    if (v === null) throw new Error('onSharedStack: read before the file started');
    return v;
  };
  return { stack: () => ready(stack), db: () => ready(db) };
}

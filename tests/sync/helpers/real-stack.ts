// The lifecycle every R9 row test file shares: one stack (started before its tests, destroyed after),
// a superuser pool on its database, and the devices a test made, stopped after each test. `bind`
// hands the stack and pool to the file's own variables once they exist.
import type pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startTestStack, type TestStack } from '../../helpers/stack.ts';
import { pool } from './server-db.ts';

export function withRealStack(
  devices: { stop(): Promise<void> }[],
  bind: (stack: TestStack, db: pg.Pool) => void,
  options?: Parameters<typeof startTestStack>[0],
): void {
  let stack: TestStack | null = null;
  let db: pg.Pool | null = null;
  beforeAll(async () => {
    stack = await startTestStack(options);
    db = pool(stack.databaseUrl);
    db.on('error', () => undefined); // idle connections end with the stack
    bind(stack, db);
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.stop()));
  });
  afterAll(async () => {
    await db?.end();
    await stack?.destroy();
  });
}

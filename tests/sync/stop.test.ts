// engine.stop() leaves nothing that keeps a Node process alive: a child process that ran an engine
// (pull, send, realtime over ws) exits by itself after stop(). The bound is 10 s and not 0 because
// realtime-js's own disconnect arms a 10 s fallback timer it never clears (supabase/realtime-js
// src/phoenix/socketAdapter.ts, `disconnect`); before the engine closed the socket the child never
// exited.
import { spawn } from 'node:child_process';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ProvidedStack } from '../helpers/global-stack.ts';
import { createAccount, createConversation, pool } from './helpers/server-db.ts';

let stack: ProvidedStack;
let db: pg.Pool;
beforeAll(() => {
  stack = inject('stack');
  db = pool(stack.databaseUrl);
});
afterAll(async () => {
  await db.end();
});

describe('engine.stop() in Node', () => {
  it('a child process running an engine exits by itself after stop()', async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'stop');
    const conv = await createConversation(db, a.id, a.humans[0]!);
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/sync/fixtures/stop-child.ts'], {
      env: {
        ...process.env,
        STOP_URL: stack.url,
        STOP_ANON: stack.anonKey,
        STOP_TOKEN: a.users[0]!.token,
        STOP_USER: a.users[0]!.id,
        STOP_ACCOUNT: a.id,
        STOP_CONVERSATION: conv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | string>((resolve) => {
      const killer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still alive 20 s after start');
      }, 20_000);
      child.on('exit', (c) => {
        clearTimeout(killer);
        resolve(c ?? -1);
      });
    });
    expect(out).toContain('stopped');
    expect(code).toBe(0);
    const sent = await db.query('select 1 from public.messages where conversation_id = $1', [conv]);
    expect(sent.rowCount).toBe(1);
  });
});

// Start, stop and restart of the local stack: data survives, nothing keeps running after stop, a stack
// killed with SIGKILL is cleaned up by the next start, and start-up problems end with one clear line.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startTestStack } from '../helpers/stack.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { StartError } from '../../supabase/local/errors.ts';
import { alive } from '../../supabase/local/process-registry.ts';

async function waitFor(cond: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

const tempDir = tempDirs('poradna-life-');

describe('stack lifecycle', () => {
  it('stops every process and keeps the data for the next start', async () => {
    const dataDir = await tempDir();
    const first = await startTestStack({}, { dataDir });
    const keys = first.keys;
    const c1 = new pg.Client({ connectionString: first.databaseUrl });
    await c1.connect();
    await c1.query('create table public.lifecycle_probe (v text)');
    await c1.query(`insert into public.lifecycle_probe values ('přežije')`);
    await c1.end();
    const pids = [first.postgresPid, first.postgrestPid];
    expect(pids.every(alive)).toBe(true);
    await first.stop();
    expect(await waitFor(() => !pids.some(alive))).toBe(true);

    const second = await startTestStack({}, { dataDir });
    try {
      expect(second.keys).toEqual(keys);
      const c2 = new pg.Client({ connectionString: second.databaseUrl });
      await c2.connect();
      const { rows } = await c2.query<{ v: string }>('select v from public.lifecycle_probe');
      await c2.end();
      expect(rows).toEqual([{ v: 'přežije' }]);
      const res = await fetch(`${second.url}/rest/v1/`, { headers: { apikey: second.keys.anonKey } });
      expect(res.status).toBeLessThan(500);
    } finally {
      await second.stop();
    }
  });

  it('npm run start:stack prints a working database URL, and a stack killed with SIGKILL is cleaned up after', async () => {
    const dataDir = await tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'quiet' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A failed expectation before the SIGKILL below must not leave a running stack behind.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    expect(await waitFor(() => out.includes('Demo logins'), 60_000)).toBe(true);
    expect(out).toMatch(/Poradňa is running at http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain('demo@poradna.test');
    // The banner names the database (issue 35: convergence checks connect to it) with a working URL.
    const dbUrl = /^ {4}database {7}(postgres:\/\/\S+) \(superuser, this machine only\)$/m.exec(out)?.[1];
    expect(dbUrl, 'database line in the banner').toBeTruthy();
    const banner = new pg.Client({ connectionString: dbUrl });
    await banner.connect();
    const demo = await banner.query<{ n: number }>(`select count(*)::int as n from auth.users where email = 'demo@poradna.test'`);
    await banner.end();
    expect(demo.rows).toEqual([{ n: 1 }]);
    const pids = JSON.parse(
      await import('node:fs/promises').then((f) => f.readFile(join(dataDir, 'stack.pids'), 'utf8')),
    ) as { children: number[] };
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(pids.children.some(alive)).toBe(true); // orphans exist until the next start

    const next = await startTestStack({}, { dataDir });
    try {
      expect(pids.children.some(alive)).toBe(false);
    } finally {
      await next.stop();
    }
  });

  it('ends with one clear line when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startTestStack({ port, host: '127.0.0.1' })).rejects.toThrow(
        new StartError(`Port ${port} is already in use; stop what uses it or start with PORT=<another port>.`),
      );
    } finally {
      blocker.close();
    }
  });

  it('ends with one clear line when DATA_DIR is not a directory', async () => {
    const dir = await tempDir();
    const file = join(dir, 'not-a-dir');
    await writeFile(file, 'x');
    await expect(startTestStack({}, { dataDir: file })).rejects.toThrow(/DATA_DIR .* cannot be/);
  });

  it('refuses a DATA_DIR that a running stack owns', async () => {
    const dataDir = await tempDir();
    const first = await startTestStack({}, { dataDir });
    try {
      await expect(startTestStack({}, { dataDir })).rejects.toThrow(/in use by a running stack/);
    } finally {
      await first.stop();
    }
  });
});

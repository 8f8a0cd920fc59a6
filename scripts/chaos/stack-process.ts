// The local stack as a child process on one DATA_DIR and a fixed port, so the run can kill -9 it
// (or its PostgreSQL) and start it again. The stack reclaims a killed predecessor's PostgREST and
// PostgreSQL through DATA_DIR/stack.pids (supabase/local/process-registry.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface StackProcessOptions {
  dataDir: string;
  port: number;
  webDir: string;
  publicUrl: string;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class StackProcess {
  private child: ChildProcess | undefined;
  private readonly out: WriteStream;
  readonly url: string;

  constructor(private readonly o: StackProcessOptions) {
    this.url = `http://127.0.0.1:${o.port}`;
    this.out = createWriteStream(join(o.dataDir, '..', 'stack.log'), { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(timeoutMs = 120_000): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
      env: {
        ...process.env,
        DATA_DIR: this.o.dataDir,
        PORT: String(this.o.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: this.o.publicUrl,
        WEB_DIR: this.o.webDir,
        SEED: 'true',
        LOG_LEVEL: 'info',
        AUTH_RATE_LIMIT_IP: '100000',
        AUTH_RATE_LIMIT_EMAIL: '100000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.pipe(this.out, { end: false });
    child.stderr?.pipe(this.out, { end: false });
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`stack exited during start (${child.exitCode ?? child.signalCode}); see ${join(this.o.dataDir, '..', 'stack.log')}`);
      if (await this.healthy()) return;
      await sleep(300);
    }
    throw new Error('stack did not become healthy in time');
  }

  /** PostgREST answers through PostgreSQL and auth answers: the stack can take writes. */
  async healthy(): Promise<boolean> {
    try {
      const keys = await this.keys();
      // The service role (the secret key): the anon role may read nothing, and a 401 would say nothing
      // about health.
      const h = { apikey: keys.secretKey, Authorization: `Bearer ${keys.secretKey}` };
      const signal = AbortSignal.timeout(3000);
      const [rest, auth] = await Promise.all([
        fetch(`${this.url}/rest/v1/specialists?select=id&limit=1`, { headers: h, signal }),
        fetch(`${this.url}/auth/v1/health`, { headers: h, signal }),
      ]);
      await rest.arrayBuffer();
      await auth.arrayBuffer();
      return rest.ok && auth.ok;
    } catch {
      return false;
    }
  }

  async keys(): Promise<{ anonKey: string; serviceRoleKey: string; publishableKey: string; secretKey: string }> {
    return JSON.parse(await readFile(join(this.o.dataDir, 'keys.json'), 'utf8')) as {
      anonKey: string;
      serviceRoleKey: string;
      publishableKey: string;
      secretKey: string;
    };
  }

  /** postmaster.pid: line 1 the pid, line 4 the port. */
  async postmaster(): Promise<{ pid: number; port: number } | undefined> {
    try {
      const lines = (await readFile(join(this.o.dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
      return { pid: Number(lines[0]), port: Number(lines[3]) };
    } catch {
      return undefined;
    }
  }

  async databaseUrl(): Promise<string> {
    const pm = await this.postmaster();
    if (!pm) throw new Error('PostgreSQL is not running');
    const { password } = JSON.parse(await readFile(join(this.o.dataDir, 'db.json'), 'utf8')) as { password: string };
    return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pm.port}/postgres`;
  }

  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }

  async killPostgres9(): Promise<number | undefined> {
    const pm = await this.postmaster();
    if (!pm) return undefined;
    process.kill(pm.pid, 'SIGKILL');
    return pm.pid;
  }

  /**
   * After a fault: wait up to `graceMs` for the stack to heal by itself; otherwise kill -9 and
   * restart it. Says which happened.
   */
  async recover(graceMs = 20_000): Promise<'recovered by itself' | 'restarted by the chaos run'> {
    const end = Date.now() + graceMs;
    // Give the failure time to be noticed before the first health check can pass on stale state.
    await sleep(1000);
    while (Date.now() < end) {
      if (await this.healthy()) return 'recovered by itself';
      await sleep(500);
    }
    await this.kill9();
    await this.start();
    return 'restarted by the chaos run';
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(t);
    this.out.end();
  }
}

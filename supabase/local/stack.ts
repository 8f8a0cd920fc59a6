// Starts and stops the whole local Supabase-compatible stack in one Node process.
// Order: bind the public port (fail fast) -> PostgreSQL (initdb, or a template's copy) -> bootstrap +
// migrations + seed (all already in a template's copy: then only the idempotent bootstrap) -> PostgREST
// -> auth, realtime, functions. Invariant: stop() leaves no child process running, and a stack killed
// with SIGKILL is cleaned up by the next start on the same DATA_DIR (process-registry.ts).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import pg from 'pg';
import { WebSocket } from 'ws';
import { devMailMode, type StackConfig } from './config.ts';
import { StartError } from './errors.ts';
import { onFreePort } from './free-port.ts';
import { loadOrCreateKeys, postgrestJwks, publicJwks, type StackKeys } from './keys.ts';
import { createMailer, type Mailer } from './mailbox.ts';
import { migrate, repoRoot } from './migrate.ts';
import { externalPostgres, startEmbeddedPostgres, type RunningPostgres } from './postgres.ts';
import { ensureTemplate, UnusableCacheDir } from './pg-template/cache.ts';
import type { ClusterTemplate } from './pg-template/adopt.ts';
import { startPostgrest, type RunningPostgrest } from './postgrest.ts';
import { ProcessRegistry } from './process-registry.ts';
import { Supervisor, type ChildRun } from './supervisor.ts';
import { createAuthApp } from './auth/app.ts';
import { clientIp } from './auth/rate-limit.ts';
import type { DeliveryTiming } from './realtime/deps.ts';
import type { RealtimeStats } from './realtime/limits.ts';
import { createRealtimeServer, type RealtimeServer } from './realtime/server.ts';
import { createGateway } from './gateway/app.ts';
import { restProxy } from './gateway/rest-proxy.ts';
import { functionsHost } from './gateway/functions-host.ts';
import { devMailApp } from './gateway/dev-mail.ts';
import { boundBodyIdle, serverTimeouts } from './gateway/slow-clients.ts';
import { lingerAfterResponse } from './gateway/lingering-close.ts';
import { envScript, staticWeb } from './gateway/static-web.ts';
import { createStorage } from './storage/server.ts';
import { startWorkers, type Workers } from './workers.ts';
import { loadOrCreateVapidKeys, type VapidKeyPair } from './vapid.ts';
import { hearConnectionErrors } from './pool-errors.ts';

// Edge functions expect a WebSocket global as Deno provides; Node 20 has none without a flag.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export interface RunningStack {
  url: string;
  port: number;
  keys: StackKeys;
  /** Superuser connection string of the stack's database. */
  databaseUrl: string;
  pool: pg.Pool;
  mailer: Mailer;
  /** The dev mailbox's secret when HOST or PUBLIC_URL is not this machine (config.ts devMailMode
   *  'token'): /_dev answers only ?token=<it> or X-Dev-Mail-Token; the start banner prints it. */
  devMailToken: string | undefined;
  /** The current PostgreSQL process (changes when the supervisor restarts it). */
  postgresPid: number | undefined;
  postgrestPid: number | undefined;
  /** Test-facing fault controls: stop a part and keep it down until started again. */
  faults: StackFaults;
  /** The realtime server's flood counters (issue 36 N4). */
  realtimeStats(): RealtimeStats;
  stop(): Promise<void>;
}

export interface StackFaults {
  /** Stops PostgREST (SIGTERM) and keeps it down. */
  stopPostgrest(): Promise<void>;
  /** Starts PostgREST again; resolves once it serves. */
  startPostgrest(): Promise<void>;
  /** Stops the embedded PostgreSQL (SIGKILL by default, as a crash) and keeps it down. */
  stopPostgres(signal?: 'SIGKILL' | 'SIGINT'): Promise<void>;
  /** Starts PostgreSQL again; resolves once it accepts connections. */
  startPostgres(): Promise<void>;
}

export interface StartOptions {
  log?: (line: string) => void;
  functionsDir?: string;
  /** Extra env passed to edge functions (tests inject fakes' URLs here). */
  functionEnv?: Record<string, string>;
  /** Measurement hook: each change's hop through the realtime server (bench rows 4a/4b). */
  onRealtimeDelivery?: (d: DeliveryTiming) => void;
  /** false: no local push worker, as on a hosted project, where push-dispatch sends (its tests). */
  pushWorker?: boolean;
  /**
   * A new embedded cluster is a copy of a migrated and seeded template (pg-template/), built once per
   * content and shared through the OS temp dir, instead of initdb + migrations + seed (issue 42).
   * For throwaway stacks (tests/helpers/stack.ts); `npm start` never sets it.
   */
  pgTemplate?: boolean;
  /** false: the embedded cluster runs with fsync=off (postgres.ts EmbeddedOptions.fsync); throwaway stacks only. */
  pgFsync?: boolean;
}

async function secretsFor(dataDir: string): Promise<{ authenticatorPassword: string }> {
  const file = join(dataDir, 'secrets.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { authenticatorPassword: string };
  } catch {
    const s = { authenticatorPassword: randomBytes(18).toString('base64url') };
    await writeFile(file, JSON.stringify(s), { mode: 0o600 });
    return s;
  }
}

/** A template for a throwaway stack; none (initdb + migrations as always) when the cache cannot be used. */
async function templateOrNone(seed: boolean, log: (line: string) => void): Promise<ClusterTemplate | undefined> {
  try {
    return await ensureTemplate({ seed, log });
  } catch (err) {
    if (!(err instanceof UnusableCacheDir)) throw err;
    log(`${err.message}; starting from an empty database instead.`);
    return undefined;
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolveListen, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE')
        reject(new StartError(`Port ${port} is already in use; stop what uses it or start with PORT=<another port>.`));
      else if (err.code === 'EACCES')
        reject(new StartError(`Port ${port} needs privileges; start with PORT=8080 or another port above 1024.`));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      const addr = server.address();
      resolveListen(typeof addr === 'object' && addr ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startStack(config: StackConfig, opts: StartOptions = {}): Promise<RunningStack> {
  const log = opts.log ?? ((l: string) => console.log(l));
  try {
    await mkdir(config.dataDir, { recursive: true });
  } catch (err) {
    throw new StartError(`DATA_DIR ${config.dataDir} cannot be created (${(err as Error).message}); point DATA_DIR at a writable directory.`);
  }
  const registry = new ProcessRegistry(config.dataDir);
  const reclaimed = await registry.reclaim();
  if (typeof reclaimed === 'object')
    throw new StartError(`DATA_DIR ${config.dataDir} is in use by a running stack (pid ${reclaimed.inUseBy}); stop it or choose another DATA_DIR.`);
  if (reclaimed === 'reclaimed') log('Cleaned up processes left by a stack that did not stop cleanly.');

  let keys: StackKeys;
  let secrets: { authenticatorPassword: string };
  let vapid: VapidKeyPair;
  try {
    keys = await loadOrCreateKeys(config.dataDir);
    secrets = await secretsFor(config.dataDir);
    vapid = await loadOrCreateVapidKeys(config.dataDir, config.push);
  } catch (err) {
    await registry.clear();
    throw new StartError(`DATA_DIR ${config.dataDir} cannot be used (${(err as Error).message}); point DATA_DIR at a writable directory.`);
  }
  const mailer = createMailer(config.smtp, log);
  // A fresh secret per start (issue 36 N1): nothing to configure, nothing that outlives the process.
  const devMailToken = devMailMode(config) === 'token' ? randomBytes(24).toString('base64url') : undefined;

  let ready = false;
  let postgrest: RunningPostgrest | undefined;
  let postgres: RunningPostgres | undefined;
  let pool: pg.Pool | undefined;
  let realtime: RealtimeServer | undefined;
  let workers: Workers | undefined;
  let restSupervisor: Supervisor | undefined;
  let pgSupervisor: Supervisor | undefined;
  let boundPort = config.port;
  // Bound to one address (tests bind 127.0.0.1): links must point at exactly that origin.
  const publicHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const publicUrl = () => config.publicUrl ?? `http://${publicHost}:${boundPort}`;

  // The server binds first so that a busy port fails before anything else starts.
  // Until the gateway is wired (PostgreSQL, migrations, PostgREST take seconds) a request gets a 503
  // at once: with no listener Node would leave it unanswered and a client without timeouts would
  // wait forever (found by the chaos run: outboxes stalled after a restart).
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  // Slow clients (headers or a body a byte at a time) are cut as hosted's nginx cuts them.
  const server = createServer(serverTimeouts(config.httpTimeouts), (req, res) => {
    boundBodyIdle(req, res, config.httpTimeouts.bodyIdleMs);
    lingerAfterResponse(req, res);
    if (handle) return handle(req, res);
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ code: 'PGRST000', message: 'Starting up, retry shortly', details: null, hint: null }));
  });
  try {
    boundPort = await listen(server, config.port, config.host);
  } catch (err) {
    await registry.clear();
    throw err;
  }

  const onExit = () => registry.killSync(postgres?.pid);
  process.once('exit', onExit);
  const cleanup = async () => {
    ready = false;
    await restSupervisor?.stop();
    await pgSupervisor?.stop();
    // Children die first: nothing below may leave PostgREST or PostgreSQL orphaned if a later step
    // hangs or the process is forced out.
    await postgrest?.stop().catch(() => undefined);
    await workers?.stop().catch(() => undefined);
    await realtime?.close().catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await pool?.end().catch(() => undefined);
    await postgres?.stop().catch(() => undefined);
    await registry.clear();
    process.off('exit', onExit);
  };

  try {
    postgres = config.databaseUrl
      ? externalPostgres(config.databaseUrl)
      : await onFreePort((port) =>
          startEmbeddedPostgres(config.dataDir, port, log, {
            ...(opts.pgTemplate ? { template: () => templateOrNone(config.seed, log) } : {}),
            ...(opts.pgFsync === false ? { fsync: false } : {}),
          }),
        );
    await registry.add(postgres.pid);
    const pgRun = postgres;
    if (pgRun.restart && pgRun.exited) {
      // Supervise: PostgreSQL killed (even with SIGKILL) comes back on the same port and data; the
      // pools reconnect on their next query, the LISTEN connections are told to retry at once.
      pgSupervisor = new Supervisor({
        name: 'PostgreSQL',
        log,
        start: async () => {
          await pgRun.restart!();
          return { pid: pgRun.pid, exited: pgRun.exited! };
        },
        onUp: async (run) => {
          await registry.add(run.pid);
          realtime?.reconnectNow();
          workers?.reconnectNow();
        },
        onDown: (run) => registry.remove(run.pid),
      });
      pgSupervisor.watch({ pid: pgRun.pid, exited: pgRun.exited });
    }

    const migrated = await migrate(postgres.url, { seed: config.seed, authenticatorPassword: secrets.authenticatorPassword });
    if (migrated.applied.length) log(`Applied migrations: ${migrated.applied.join(', ')}`);
    if (migrated.seeded) log('Seeded demo data.');
    for (const f of migrated.changedAfterApply) log(`Warning: migration ${f} changed after it was applied; write a new migration instead.`);

    pool = new pg.Pool({ connectionString: postgres.url, max: 20, connectionTimeoutMillis: 10_000 });
    pool.on('error', (err) => log(`database pool: ${err.message}`));
    hearConnectionErrors(pool, log, 'database pool');

    const u = new URL(postgres.url);
    const authenticatorUri = `postgres://authenticator:${encodeURIComponent(secrets.authenticatorPassword)}@${u.host}${u.pathname}`;
    const startRest = async (): Promise<ChildRun> => {
      const p = await onFreePort((port) => startPostgrest({ dbUri: authenticatorUri, jwtSecret: postgrestJwks(keys), port, log }));
      postgrest = p;
      return p;
    };
    // Supervise: a crashed PostgREST comes back by itself.
    restSupervisor = new Supervisor({
      name: 'PostgREST',
      log,
      start: startRest,
      onUp: (run) => registry.add(run.pid),
      onDown: async (run) => {
        if (postgrest?.pid === run.pid) postgrest = undefined;
        await registry.remove(run.pid);
      },
    });
    const firstRest = await startRest();
    await registry.add(firstRest.pid);
    restSupervisor.watch(firstRest);

    const functionEnv = () => ({
      SUPABASE_URL: publicUrl(),
      SUPABASE_INTERNAL_URL: `http://127.0.0.1:${boundPort}`,
      SUPABASE_ANON_KEY: keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
      // What a hosted project with the new keys gives functions: JSON maps of name → key (supabase/cli
      // apps/cli-go/internal/functions/serve/templates/main.ts, `{ default: key }`).
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: keys.publishableKey }),
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: keys.secretKey }),
      // The JWKS user tokens are verified with, a default secret of hosted functions too
      // (docs guides/functions/secrets.mdx: "Same value served at …/auth/v1/jwks").
      SUPABASE_JWKS: JSON.stringify(publicJwks(keys)),
      SUPABASE_DB_URL: postgres!.url,
      ...(config.chatwoot ? { CHATWOOT_API_TOKEN: config.chatwoot.apiToken } : {}),
      // The AI provider's secrets, as a hosted project gives them to ai-reply-worker and admin-ai-status.
      ...(config.ai ? { AI_BASE_URL: config.ai.baseUrl, AI_API_KEY: config.ai.apiKey, AI_MODEL: config.ai.model } : {}),
      ...(config.chatwoot?.webhookSecret ? { CHATWOOT_WEBHOOK_SECRET: config.chatwoot.webhookSecret } : {}),
      ...(config.chatwoot?.allowPrivateUrls ? { CHATWOOT_ALLOW_PRIVATE_URLS: '1' } : {}),
      // Where the app is served: auth-link sends its set-password link there (issue 21 item 11).
      SITE_URL: publicUrl(),
      AUTH_LINK_RATE_LIMIT_CLIENT: String(config.authLinkRateLimit.perClient),
      AUTH_LINK_RATE_LIMIT_EMAIL: String(config.authLinkRateLimit.perEmail),
      AUTH_LINK_RATE_LIMIT_WINDOW_S: String(config.authLinkRateLimit.windowSeconds),
      // Web Push: the push worker and push-dispatch send with these (hosted: function secrets).
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: config.push.subject,
      ...(config.push.allowPrivateEndpoints ? { PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' } : {}),
      ...(config.push.endpointHosts ? { PUSH_ENDPOINT_HOSTS: config.push.endpointHosts } : {}),
      ...opts.functionEnv,
    });

    // The gateway and realtime check API keys with the operator's legacy-key setting.
    const gatewayKeys = { ...keys, legacyDisabled: !config.legacyApiKeys };
    realtime = await createRealtimeServer({
      pool,
      databaseUrl: postgres.url,
      keys: gatewayKeys,
      log,
      limits: config.realtimeLimits,
      trustForwardedFor: config.trustForwardedFor,
      ...(opts.onRealtimeDelivery ? { onDelivery: opts.onRealtimeDelivery } : {}),
    });
    const app = createGateway({
      keys: gatewayKeys,
      auth: createAuthApp({ pool, keys, config, mailer, publicUrl }),
      rest: restProxy(() => postgrest?.url),
      functions: functionsHost({
        functionsDir: opts.functionsDir ?? join(repoRoot, 'supabase', 'functions'),
        configToml: join(repoRoot, 'supabase', 'config.toml'),
        keys: { ...gatewayKeys, jwtSecret: keys.jwtSecret, jwks: publicJwks(keys) },
        env: functionEnv,
        // The caller's address as X-Forwarded-For, as Supabase's edge hands it to functions.
        clientAddress: (c) => clientIp(c, config.trustForwardedFor),
      }),
      devMail: devMailApp(mailer, { mode: devMailMode(config), token: devMailToken, publicUrl }),
      web: staticWeb(config.webDir, () => envScript(publicUrl, keys.publishableKey, vapid.publicKey), { serveSourceMaps: config.serveSourceMaps, publicUrl }),
      ready: () => ready,
      publicUrl,
    });
    // An unread body is lingered over by lingerAfterResponse, not cut after 500 ms (gateway/lingering-close.ts).
    const listener = getRequestListener(app.fetch, { autoCleanupIncoming: false });
    // /storage/v1 is answered before the gateway: its uploads pass the gateway's 1 MB body limit.
    const storage = await createStorage({ pool, keys, apiKeys: gatewayKeys, dataDir: config.dataDir });
    handle = (req, res) => (storage.owns(req.url) ? storage.handle(req, res) : void listener(req, res));
    const rt = realtime;
    server.on('upgrade', (req, socket, head) => {
      if ((req.url ?? '').startsWith('/realtime/v1/websocket')) rt.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
    workers = await startWorkers({ pool, databaseUrl: postgres.url, config, env: functionEnv, log, pushWorker: opts.pushWorker ?? true });
    ready = true;
  } catch (err) {
    await cleanup();
    throw err;
  }

  return {
    url: publicUrl(),
    port: boundPort,
    keys,
    databaseUrl: postgres.url,
    pool,
    mailer,
    devMailToken,
    get postgresPid() {
      return postgres?.pid;
    },
    get postgrestPid() {
      return postgrest?.pid;
    },
    realtimeStats: () => realtime.stats(),
    faults: {
      stopPostgrest: async () => {
        restSupervisor?.hold();
        await postgrest?.stop();
      },
      startPostgrest: async () => {
        await restSupervisor?.release();
      },
      stopPostgres: async (signal = 'SIGKILL') => {
        if (!pgSupervisor || !postgres) throw new Error('only the embedded PostgreSQL can be stopped');
        pgSupervisor.hold();
        const exited = postgres.exited;
        if (signal === 'SIGKILL' && postgres.pid) process.kill(postgres.pid, 'SIGKILL');
        else await postgres.stop();
        await exited;
      },
      startPostgres: async () => {
        await pgSupervisor?.release();
      },
    },
    stop: cleanup,
  };
}

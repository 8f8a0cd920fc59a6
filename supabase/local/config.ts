// Every environment variable the local stack reads, parsed in one place.
// Invariant: nothing else in supabase/local reads process.env directly.
import { resolve } from 'node:path';
import { DEMO_THINK_MS } from '../functions/_shared/ai/local-responder.ts';
import { MIN_WEBHOOK_SECRET_LENGTH } from '../functions/_shared/chatwoot/webhook-auth.ts';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './gateway/slow-clients.ts';
import { DEFAULT_LIMITS, type RealtimeLimits } from './realtime/limits.ts';

export interface StackConfig {
  /** Port of the single public origin (gateway). 0 picks a free port. */
  port: number;
  /** Host the gateway binds to: 127.0.0.1 unless HOST says otherwise (issue 16 item 1). */
  host: string;
  /** NODE_ENV=production: a deployment, never a developer's machine (turns the dev mailbox off). */
  production: boolean;
  /** Serve the build's *.map files (SOURCE_MAPS=1); otherwise they answer 404. */
  serveSourceMaps: boolean;
  /** Where PostgreSQL data, generated keys and logs live. */
  dataDir: string;
  /** External PostgreSQL instead of the embedded one (superuser URL). */
  databaseUrl: string | undefined;
  /** Public URL the browser uses; defaults to http://localhost:<port>. */
  publicUrl: string | undefined;
  /** Directory with the built PWA (vite build output). */
  webDir: string;
  /** Seed demo data into a fresh database. */
  seed: boolean;
  smtp: { url: string; from: string } | undefined;
  ai: { baseUrl: string; apiKey: string; model: string } | undefined;
  /** A streamed reply's run stops at this bound and continues in a queued run (AI_STREAM_MAX_SECONDS,
   *  default 300: below hosted Edge Functions' 400 s wall clock; sync/SPEC.md R13.3). */
  aiStreamMaxMs?: number;
  /** The built-in responder's pause between words (AI_DEMO_WORD_MS, default 20). */
  aiDemoWordMs?: number;
  /** The built-in responder's pause before its first word (AI_DEMO_THINK_MS, default 600). */
  aiDemoThinkMs?: number;
  chatwoot: { apiToken: string; webhookSecret: string | undefined; allowPrivateUrls: boolean } | undefined;
  /** Access-token lifetime in seconds (Supabase default 3600). */
  jwtExpiry: number;
  /** Rate limit: requests per window per IP and per e-mail on auth endpoints. */
  authRateLimit: { perIp: number; perEmail: number; windowMs: number };
  /** auth-link's own limits (supabase/functions/auth-link), handed to the function's env. */
  authLinkRateLimit: { perClient: number; perEmail: number; windowSeconds: number };
  /** Take the client address for rate limits from X-Forwarded-For (only behind a proxy that sets it). */
  trustForwardedFor: boolean;
  /**
   * The legacy JWT anon / service_role API keys are accepted beside the publishable / secret keys
   * (LEGACY_API_KEYS=false turns them off, as the dashboard's "disable legacy API keys" does).
   */
  legacyApiKeys: boolean;
  /**
   * bcrypt cost of the password hashes auth writes. Unset: 10, GoTrue's (bcrypt.DefaultCost;
   * supabase/auth internal/crypto/password.go GenerateFromPassword). The test stacks set 4
   * (bcrypt.MinCost), as GoTrue's own tests do (internal/api/api_test.go and
   * internal/models/user_test.go: `crypto.PasswordHashCost = crypto.QuickHashCost`). Deliberately not
   * read from the environment: a hosted project has no such setting, so `npm start` always hashes as
   * hosted does. A comparison takes the cost stored in the hash, whatever this says.
   */
  passwordHashCost?: number;
  /** Seconds a rotated refresh token may still be presented to get its current child (GoTrue default 10). */
  refreshReuseIntervalSec: number;
  logLevel: 'quiet' | 'info' | 'debug';
  /** Auth: URL globs a mailed link may redirect to besides PUBLIC_URL's origin (GoTrue URI_ALLOW_LIST). */
  redirectAllowList: string[];
  /** Auth: refuse public POST /auth/v1/signup (GoTrue DISABLE_SIGNUP); admin API and auth-link still create users. */
  disableSignup: boolean;
  /** Auth: sign-up confirms at once and returns a session (GoTrue MAILER_AUTOCONFIRM); off as on hosted Supabase. */
  mailerAutoconfirm: boolean;
  /** Web Push (issue 20): VAPID keys (generated into DATA_DIR when not given), the VAPID subject, and
   *  whether push endpoints on any host and plain http may be called (tests' fake push service), and
   *  PUSH_ENDPOINT_HOSTS (extra push-service hosts, comma-separated) for the push worker. */
  push: { publicKey: string | undefined; privateKey: string | undefined; subject: string; allowPrivateEndpoints: boolean; endpointHosts?: string };
  /** Realtime flood limits (issue 36 N4), hosted free-plan values by default (realtime/limits.ts). */
  realtimeLimits: RealtimeLimits;
  /** How long the gateway waits for a slow client's headers and body (gateway/slow-clients.ts: nginx's
   *  defaults, as hosted's Kong keeps them). */
  httpTimeouts: HttpTimeouts;
}

type Env = Record<string, string | undefined>;

/**
 * The dev mailbox (/_dev/mail) exists only on a developer's machine: never when mails really go out
 * (SMTP_URL) and never in a production mode. See gateway/dev-mail.ts for who may read it.
 */
export function devMailEnabled(config: Pick<StackConfig, 'smtp' | 'production'>): boolean {
  return !config.smtp && !config.production;
}

/** A host name or address that can only mean this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:/, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1';
}

/**
 * How the dev mailbox is reached (issue 36 N1). 'loopback': HOST and PUBLIC_URL both name this machine,
 * so nothing outside it was meant to reach the stack and a loopback peer is a local tool. 'token': the
 * stack is bound or announced beyond this machine, so a proxy or TCP forwarder may stand in front of
 * it and make every internet client a loopback peer that sends no forwarding header; a loopback peer
 * then proves nothing and the mailbox answers only with the random token printed in the start banner.
 * 'off': mails really go out, or production.
 */
export type DevMailMode = 'off' | 'loopback' | 'token';

export function devMailMode(config: Pick<StackConfig, 'smtp' | 'production' | 'host' | 'publicUrl'>): DevMailMode {
  if (!devMailEnabled(config)) return 'off';
  let publicHost = 'localhost';
  if (config.publicUrl !== undefined) {
    try {
      publicHost = new URL(config.publicUrl).hostname;
    } catch {
      return 'token';
    }
  }
  return isLoopbackHost(config.host) && isLoopbackHost(publicHost) ? 'loopback' : 'token';
}

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/**
 * A webhook secret shorter than the function accepts would make every Chatwoot delivery fail with
 * 503 while the stack looked healthy (issue 21 admin item 4): refuse it at start instead.
 */
function webhookSecret(env: Env): string | undefined {
  const secret = env.CHATWOOT_WEBHOOK_SECRET || undefined;
  if (secret !== undefined && secret.length < MIN_WEBHOOK_SECRET_LENGTH)
    throw new Error(
      `CHATWOOT_WEBHOOK_SECRET must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (a long random secret, e.g. \`openssl rand -hex 24\`), got ${secret.length}`,
    );
  return secret;
}

export function readConfig(env: Env = process.env, cwd = process.cwd()): StackConfig {
  const smtpUrl = env.SMTP_URL;
  const aiBase = env.AI_BASE_URL;
  const level = env.LOG_LEVEL;
  const cwWebhookSecret = webhookSecret(env);
  return {
    port: int(env, 'PORT', 8080),
    // Loopback by default: a fresh `npm start` is reachable from this machine only. A deployment
    // names its address (HOST=0.0.0.0 behind its own TLS proxy).
    host: env.HOST || '127.0.0.1',
    production: env.NODE_ENV === 'production',
    serveSourceMaps: /^(1|true|yes)$/i.test(env.SOURCE_MAPS ?? ''),
    dataDir: resolve(cwd, env.DATA_DIR ?? '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    webDir: resolve(cwd, env.WEB_DIR ?? 'dist'),
    seed: env.SEED !== 'false',
    smtp: smtpUrl ? { url: smtpUrl, from: env.SMTP_FROM ?? 'Poradňa <no-reply@poradna.test>' } : undefined,
    ai:
      aiBase && env.AI_API_KEY && env.AI_MODEL
        ? { baseUrl: aiBase, apiKey: env.AI_API_KEY, model: env.AI_MODEL }
        : undefined,
    aiStreamMaxMs: int(env, 'AI_STREAM_MAX_SECONDS', 300) * 1000,
    aiDemoWordMs: int(env, 'AI_DEMO_WORD_MS', 20),
    aiDemoThinkMs: int(env, 'AI_DEMO_THINK_MS', DEMO_THINK_MS),
    chatwoot: env.CHATWOOT_API_TOKEN
      ? {
          apiToken: env.CHATWOOT_API_TOKEN,
          webhookSecret: cwWebhookSecret,
          // Opt-in for a Chatwoot on a private network or plain http (supabase/functions/_shared/chatwoot/guarded-fetch.ts).
          allowPrivateUrls: /^(1|true|yes)$/i.test(env.CHATWOOT_ALLOW_PRIVATE_URLS ?? ''),
        }
      : undefined,
    jwtExpiry: int(env, 'JWT_EXPIRY', 3600),
    authRateLimit: {
      perIp: int(env, 'AUTH_RATE_LIMIT_IP', 30),
      perEmail: int(env, 'AUTH_RATE_LIMIT_EMAIL', 10),
      windowMs: int(env, 'AUTH_RATE_LIMIT_WINDOW_MS', 60_000),
    },
    authLinkRateLimit: {
      perClient: int(env, 'AUTH_LINK_RATE_LIMIT_CLIENT', 10),
      perEmail: int(env, 'AUTH_LINK_RATE_LIMIT_EMAIL', 3),
      windowSeconds: int(env, 'AUTH_LINK_RATE_LIMIT_WINDOW_S', 600),
    },
    trustForwardedFor: /^(1|true|yes)$/i.test(env.TRUST_X_FORWARDED_FOR ?? ''),
    legacyApiKeys: !/^(0|false|no|off)$/i.test(env.LEGACY_API_KEYS ?? ''),
    refreshReuseIntervalSec: int(env, 'REFRESH_TOKEN_REUSE_INTERVAL', 10),
    logLevel: level === 'quiet' || level === 'debug' ? level : 'info',
    redirectAllowList: (env.REDIRECT_ALLOW_LIST ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
    disableSignup: /^(1|true|yes)$/i.test(env.DISABLE_SIGNUP ?? ''),
    mailerAutoconfirm: /^(1|true|yes)$/i.test(env.MAILER_AUTOCONFIRM ?? ''),
    push: {
      publicKey: env.VAPID_PUBLIC_KEY || undefined,
      privateKey: env.VAPID_PRIVATE_KEY || undefined,
      subject: env.VAPID_SUBJECT || 'mailto:no-reply@poradna.test',
      allowPrivateEndpoints: /^(1|true|yes)$/i.test(env.PUSH_ALLOW_PRIVATE_ENDPOINTS ?? ''),
      ...(env.PUSH_ENDPOINT_HOSTS ? { endpointHosts: env.PUSH_ENDPOINT_HOSTS } : {}),
    },
    realtimeLimits: {
      // Hosted's max_payload_size_in_kb counts 1000 bytes a KB plus 500 bytes of padding.
      maxPayloadBytes: int(env, 'REALTIME_MAX_PAYLOAD_KB', 256) * 1000 + 500,
      maxEventsPerSecond: int(env, 'REALTIME_MAX_EVENTS_PER_SECOND', DEFAULT_LIMITS.maxEventsPerSecond),
      maxBytesPerSecond: int(env, 'REALTIME_MAX_BYTES_PER_SECOND', DEFAULT_LIMITS.maxBytesPerSecond),
      maxBufferedBytes: int(env, 'REALTIME_MAX_BUFFERED_BYTES', DEFAULT_LIMITS.maxBufferedBytes),
      maxSocketsPerAddress: int(env, 'REALTIME_MAX_SOCKETS_PER_ADDRESS', DEFAULT_LIMITS.maxSocketsPerAddress),
    },
    httpTimeouts: {
      headersMs: int(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', DEFAULT_HTTP_TIMEOUTS.headersMs / 1000) * 1000,
      bodyIdleMs: int(env, 'HTTP_BODY_TIMEOUT_SECONDS', DEFAULT_HTTP_TIMEOUTS.bodyIdleMs / 1000) * 1000,
      requestMs: int(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', DEFAULT_HTTP_TIMEOUTS.requestMs / 1000) * 1000,
      keepAliveMs: int(env, 'HTTP_KEEPALIVE_TIMEOUT_SECONDS', DEFAULT_HTTP_TIMEOUTS.keepAliveMs / 1000) * 1000,
    },
  };
}

// `npm start`: the whole product on one machine. Prints the URL, the database URL and the demo logins.
import { join } from 'node:path';
import { devMailMode, readConfig, type StackConfig } from './config.ts';
import { StartError } from './errors.ts';
import { startStack, type RunningStack } from './stack.ts';

const DEMO_LOGINS = [
  ['člen účtu', 'demo@poradna.test', 'poradna123'],
  ['super admin', 'admin@poradna.test', 'poradna123'],
] as const;

/** Where this run's mails can be read (README "Reading mails"). */
function mailWhere(config: StackConfig, url: string, token: string | undefined): string {
  const mode = devMailMode(config);
  if (mode === 'loopback') return `${url}/_dev/mail (from this machine only)`;
  if (mode === 'token') return `${url}/_dev/mail?token=${token} (keep it secret: it signs in as anyone)`;
  if (config.smtp) return 'sent by SMTP (SMTP_URL); the dev mailbox is off';
  return 'NOT DELIVERED: NODE_ENV=production turns the dev mailbox off; set SMTP_URL';
}

/**
 * How to reach the stack's PostgreSQL (psql, the sync kit's convergence checker: sync/testing/README.md).
 * The embedded server listens on 127.0.0.1 only and takes a new free port each start, so the banner is
 * where to learn it. Its superuser password is shown only on a developer's machine; in production
 * (whose console may land in collected logs) and for an operator's own DATABASE_URL it is masked.
 */
function databaseWhere(config: StackConfig, databaseUrl: string): string {
  const masked = () => {
    const u = new URL(databaseUrl);
    if (u.password) u.password = '****';
    return u.toString();
  };
  if (config.databaseUrl) return `${masked()} (DATABASE_URL)`;
  if (config.production) return `${masked()} (this machine only; password in ${join(config.dataDir, 'db.json')})`;
  return `${databaseUrl} (superuser, this machine only)`;
}

async function main(): Promise<void> {
  let config;
  try {
    config = readConfig();
  } catch (err) {
    console.error(`Configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  const log = config.logLevel === 'quiet' ? () => {} : (l: string) => console.log(l);
  let stack: RunningStack;
  try {
    stack = await startStack(config, { log });
  } catch (err) {
    if (err instanceof StartError) console.error(`Poradňa could not start: ${err.message}`);
    else console.error('Poradňa could not start:', err);
    process.exit(1);
  }
  console.log(`
  Poradňa is running at ${stack.url}
    app            ${stack.url}/app/chats
    admin          ${stack.url}/admin/accounts
    sent e-mails   ${mailWhere(config, stack.url, stack.devMailToken)}
    API            ${stack.url}/rest/v1  /auth/v1  /realtime/v1  /functions/v1
    publishable    ${stack.keys.publishableKey}
    secret key     ${stack.keys.secretKey}   (server side only; refused from browsers)
    legacy keys    ${config.legacyApiKeys ? `anon ${stack.keys.anonKey}` : 'off (LEGACY_API_KEYS=false)'}
    database       ${databaseWhere(config, stack.databaseUrl)}
    data           ${config.dataDir}

  Demo logins:
${DEMO_LOGINS.map(([who, email, pw]) => `    ${who.padEnd(12)} ${email.padEnd(22)} ${pw}`).join('\n')}

  Stop with Ctrl+C.
`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping Poradňa…`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    stack.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('stop failed:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();

// `npm start`: the whole product on one machine. Prints the URL and the demo logins.
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
    anon key       ${stack.keys.anonKey}
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

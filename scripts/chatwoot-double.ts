// Runs the Chatwoot test double by hand:
//   node --import tsx scripts/chatwoot-double.ts [--port N] [--host H] [--api-token T] [--webhook URL [--secret S]]
// Prints what a chatwoot_config and the functions need (URL, account id, API token, inboxes) and
// serves until Ctrl-C. --webhook subscribes URL to every webhook event the double sends.
import { parseArgs } from 'node:util';
import { startChatwootDouble } from '../tests/doubles/chatwoot/server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'api-token': { type: 'string' },
    webhook: { type: 'string' },
    secret: { type: 'string' },
  },
});

const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a TCP port, got ${values.port}`);
  process.exit(2);
}

const double = await startChatwootDouble({
  port,
  ...(values.host !== undefined ? { host: values.host } : {}),
  ...(values['api-token'] !== undefined ? { apiToken: values['api-token'] } : {}),
});

if (values.webhook !== undefined) {
  const events = [
    'message_created',
    'message_updated',
    'conversation_created',
    'conversation_status_changed',
    'conversation_updated',
    'conversation_typing_on',
    'conversation_typing_off',
  ];
  double.addWebhook(values.webhook, events, values.secret);
}

const lines = [
  'Chatwoot double running',
  `  URL:         ${double.url}`,
  `  Cable:       ${double.cableUrl}`,
  `  Account id:  ${double.accountId}`,
  `  API token:   ${double.apiToken}   (header api_access_token)`,
  `  Admin:       user_id ${double.admin.id}, pubsub_token ${double.admin.pubsubToken}`,
  '  Inboxes (API channel):',
  ...double.inboxes.map((i) => `    ${i.id}  ${i.name}  inbox_identifier ${i.inboxIdentifier ?? '-'}`),
  ...(values.webhook !== undefined
    ? [`  Webhook:     ${values.webhook}${values.secret !== undefined ? ' (signed)' : ''}`]
    : []),
  '  The stack must allow a Chatwoot on a private address: start it with CHATWOOT_ALLOW_PRIVATE_URLS=1.',
  'Ctrl-C stops it.',
];
console.log(lines.join('\n'));

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  double.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

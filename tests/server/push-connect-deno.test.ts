// Issue 36 N3 on Deno: hosted push-dispatch runs on Supabase's Edge Runtime (Deno), where web-push
// reaches node:https through Deno's Node compatibility. web-push hands its `agent` option to
// https.request only when it is an instance of https.Agent (web-push-lib.js, generateRequestDetails and
// sendNotification); whether Deno's node:https then calls the agent's createConnection decides whether
// the 2 s TLS bound of ConnectTimeoutAgent holds there. This runs the very send (web-push through the
// functions' import map, the shared agent) under the repository's deno against an address that takes
// the TCP connection and never speaks TLS, and checks which bound ended it: the agent's (its message),
// not web-push's 10 s idle timeout ("Socket timeout").
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../supabase/local/migrate.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const run = promisify(execFile);
const deno = join(repoRoot, 'node_modules', '.bin', 'deno');
const tempDir = tempDirs('push-deno-');

const script = (agentModule: string) => `
import webpush from 'web-push';
import * as net from 'node:net';
import { ConnectTimeoutAgent } from ${JSON.stringify(agentModule)};

const server = net.createServer((s) => void s.resume()); // takes the connection, never answers
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as net.AddressInfo).port;
const agent = new ConnectTimeoutAgent({});
let calls = 0;
const base = agent.createConnection.bind(agent);
agent.createConnection = ((...a: Parameters<typeof base>) => (calls++, base(...a))) as typeof base;
let message = 'sent';
try {
  await webpush.sendNotification(
    { endpoint: 'https://127.0.0.1:' + port + '/x', keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } },
    'x',
    { vapidDetails: { subject: 'mailto:a@b.c', ...webpush.generateVAPIDKeys() }, timeout: 10_000, agent, contentEncoding: 'aes128gcm' },
  );
} catch (e) {
  message = (e as Error).message;
}
server.close();
console.log(JSON.stringify({ calls, message }));
`;

describe('the push connect bound on Deno (hosted push-dispatch)', () => {
  it('R10.16 web-push on Deno sends through ConnectTimeoutAgent: a push service that never completes TLS is cut by the agent, not by the 10 s timeout', async () => {
    const dir = await tempDir();
    const file = join(dir, 'send.ts');
    await writeFile(file, script(join(repoRoot, 'supabase', 'functions', '_shared', 'push', 'connect-timeout.ts')));
    const { stdout } = await run(deno, ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', '--no-lock', '--config', join(repoRoot, 'supabase', 'functions', 'deno.json'), file], {
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
      timeout: 50_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as { calls: number; message: string };
    expect(out.calls, 'Deno’s node:https used the agent’s createConnection').toBe(1);
    expect(out.message).toMatch(/no TLS connection within 2000 ms/);
  });
});

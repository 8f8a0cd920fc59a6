// The hosted push-dispatch function (issue 36 N3), called through the local functions host as pg_cron
// calls it on a hosted project (invoke_push_dispatch: POST with the service role key), on a stack
// without the local push worker, so the function alone sends. It used to claim a batch and wait for
// the whole batch (a device that never answers: web-push's 10 s timeout) before it claimed the next:
// a notification that became due meanwhile waited behind the slowest device.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../supabase/local/config.ts';
import { serviceClient, type Client } from '../helpers/clients.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { decryptPush, startFakePushService, type FakePushService } from './push-helpers.ts';
import { pushMembers } from './push-members.ts';

let stack: TestStack;
let fake: FakePushService;
let pool: pg.Pool;
let svc: Client;
const { member, subscribe, specialistSays } = pushMembers(() => ({ stack, fake, svc }));

beforeAll(async () => {
  fake = await startFakePushService();
  stack = await startTestStack(
    { push: { ...readConfig({}).push, allowPrivateEndpoints: true } },
    { functionEnv: { PUSH_CA_CERT: fake.caCert }, pushWorker: false },
  );
  pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  svc = serviceClient({ url: stack.url, serviceRoleKey: stack.keys.serviceRoleKey });
  // A notification is due as soon as it is queued (the delay D lets the reader see it first, R10.2).
  await pool.query('update private.push_settings set delay_seconds = 0');
});

afterAll(async () => {
  await pool?.end();
  await stack?.destroy();
  await fake?.close();
});

/** One push-dispatch call as pg_cron's pg_net makes it. */
async function dispatch(): Promise<{ status: number; body: Record<string, number> }> {
  const res = await fetch(`${stack.url}/functions/v1/push-dispatch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.keys.serviceRoleKey}` },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as Record<string, number> };
}

describe('push-dispatch (hosted) sends side by side', () => {
  it('R10.16 a notification that becomes due while a device holds its send is sent in the same call, before that send ends', async () => {
    const hung = await member();
    const live = await member();
    const dead = await subscribe(hung, `/dispatch-dead/${randomUUID()}`);
    fake.hang(dead.path);
    const alive = await subscribe(live);

    await specialistSays(hung.conversationId, 'Pre zariadenie, ktoré neodpovedá');
    let returned = false;
    const call = dispatch().finally(() => (returned = true));
    await fake.waitFor(1, dead.path);

    await specialistSays(live.conversationId, 'Pre iného člena');
    const [req] = await fake.waitFor(1, alive.path);
    expect(decryptPush(req!.body, alive.keys)).toContain('Pre iného člena');
    // Ordering, not a stopwatch: the other member's push arrived while the dead device's send was
    // still held and the call that sends both had not returned.
    expect(fake.hanging(dead.path), 'the dead device’s send is still held').toBe(1);
    expect(returned).toBe(false);

    // The call returns once every answer is recorded: the held send ends as "no answer".
    const done = await call;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ notifications: 2, sent: 1, failed: 1 });
  });
});

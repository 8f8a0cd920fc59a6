// Web Push end to end (issue 20, sync/SPEC.md R10): the stack's push worker sends to a fake RFC 8030
// push service on loopback, and the test decrypts what arrives with the device's keys (RFC 8291),
// checks TTL, Urgency, Topic and the VAPID JWT, and the "seen in time" rules. Its own stack: push
// endpoints on loopback are allowed here only (PUSH_ALLOW_PRIVATE_ENDPOINTS) and D is shortened.
import { randomUUID } from 'node:crypto';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../supabase/local/config.ts';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import { startAttackStack } from '../helpers/configured.ts';
import type { TestStack } from '../helpers/stack.ts';
import { PER_USER_IN_FLIGHT } from '../../supabase/functions/_shared/push/per-user.ts';
import { decryptPush, deviceKeys, sleep, startFakePushService, until, verifyVapid, type FakePushService } from './push-helpers.ts';
import { pushMembers } from './push-members.ts';

let stack: TestStack;
let fake: FakePushService;
let pool: pg.Pool;
let svc: Client;

beforeAll(async () => {
  fake = await startFakePushService();
  stack = await startAttackStack({ push: { ...readConfig({}).push, allowPrivateEndpoints: true } }, { functionEnv: { PUSH_CA_CERT: fake.caCert } });
  pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 3 });
  svc = serviceClient({ url: stack.url, serviceRoleKey: stack.keys.serviceRoleKey });
  await setDelay(1);
});

afterAll(async () => {
  await pool?.end();
  await stack?.destroy();
  await fake?.close();
});

async function setDelay(seconds: number): Promise<void> {
  await pool.query('update private.push_settings set delay_seconds = $1', [seconds]);
}

const { member, subscribe, specialistSays } = pushMembers(() => ({ stack, fake, svc }));

async function notificationStatus(messageId: string): Promise<string | undefined> {
  const r = await pool.query<{ status: string }>('select status from public.push_notifications where message_id = $1', [messageId]);
  return r.rows[0]?.status;
}

/** The push service's answer recorded for a message's (one) delivery: 0 for none, undefined before the send. */
async function answerOf(messageId: string): Promise<number | undefined> {
  const r = await pool.query<{ http_status: number | null }>(
    'select d.http_status from public.push_deliveries d join public.push_notifications n on n.id = d.notification_id where n.message_id = $1',
    [messageId],
  );
  return r.rows[0]?.http_status ?? undefined;
}

/** Two fresh members: one whose device's push service never answers (its requests are held), one
 *  whose device answers. */
async function hungAndLive(prefix: string) {
  const hung = await member();
  const live = await member();
  const dead = await subscribe(hung, `/${prefix}/${randomUUID()}`);
  fake.hang(dead.path);
  return { hung, live, dead, alive: await subscribe(live) };
}

/** "<attempts> <status>" of a message's notification. */
async function attemptsOf(messageId: string): Promise<string | undefined> {
  const r = await pool.query<{ attempts: number; status: string }>('select attempts, status from public.push_notifications where message_id = $1', [messageId]);
  return r.rows[0] ? `${r.rows[0].attempts} ${r.rows[0].status}` : undefined;
}

async function settled(messageId: string): Promise<string> {
  return until(async () => {
    const s = await notificationStatus(messageId);
    return s && !['pending', 'running'].includes(s) ? s : undefined;
  }, `notification of ${messageId} to settle`);
}

describe('R10 Web Push delivery', () => {
  it('R10.12 the VAPID public key is generated into DATA_DIR and served in /env.js, the private key never', async () => {
    const saved = JSON.parse(await readFile(join(stack.dataDir, 'vapid.json'), 'utf8')) as { publicKey: string; privateKey: string };
    expect((await stat(join(stack.dataDir, 'vapid.json'))).mode & 0o777).toBe(0o600);
    const envJs = await (await fetch(`${stack.url}/env.js`)).text();
    const env = JSON.parse(/^window\.__PORADNA_ENV__=(.*);$/.exec(envJs)![1]!) as { vapidPublicKey: string };
    expect(env.vapidPublicKey).toBe(saved.publicKey);
    expect(Buffer.from(env.vapidPublicKey, 'base64url')).toHaveLength(65);
    expect(envJs).not.toContain(saved.privateKey);
  });

  it('R10.1 a specialist reply reaches each subscribed device once, encrypted (RFC 8291) with TTL, Urgency, Topic and VAPID', async () => {
    const m = await member();
    const a = await subscribe(m);
    const b = await subscribe(m);
    const text = '**Dobrý deň**, pozrite si [návod](https://example.com/navod) a `kód`.\n\n- prvý bod\n- druhý bod ' + 'x'.repeat(200);
    const before = Date.now();
    const messageId = await specialistSays(m.conversationId, text);
    const [ra] = await fake.waitFor(1, a.path);
    const [rb] = await fake.waitFor(1, b.path);
    expect(Date.now() - before).toBeGreaterThanOrEqual(900); // not before D (1 s here)

    const unread = await m.client.rpc('get_unread_counts');
    const total = (unread.data as { unread_count: number }[]).reduce((s, r) => s + r.unread_count, 0);
    const envJs = await (await fetch(`${stack.url}/env.js`)).text();
    const vapidPublicKey = (JSON.parse(/^window\.__PORADNA_ENV__=(.*);$/.exec(envJs)![1]!) as { vapidPublicKey: string }).vapidPublicKey;
    for (const [req, dev] of [[ra!, a], [rb!, b]] as const) {
      const payload = JSON.parse(decryptPush(req.body, dev.keys)) as Record<string, unknown>;
      expect(payload).toEqual({
        type: 'message',
        conversationId: m.conversationId,
        messageId,
        title: 'Asistent Poradne',
        body: expect.stringMatching(/^Dobrý deň, pozrite si návod a kód\. prvý bod druhý bod x+…$/),
        icon: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
        tag: `conversation:${m.conversationId}`,
        url: `/app/chats/${m.conversationId}`,
        unread: total,
      });
      expect(Array.from(payload.body as string)).toHaveLength(140);
      expect(req.headers['content-encoding']).toBe('aes128gcm');
      expect(req.headers.ttl).toBe('86400');
      expect(req.headers.urgency).toBe('high');
      expect(req.headers.topic).toBe(m.conversationId.replace(/-/g, ''));
      const { claims, k } = await verifyVapid(req.headers);
      expect(k).toBe(vapidPublicKey);
      expect(claims.aud).toBe(fake.url);
      expect(claims.sub).toBe('mailto:no-reply@poradna.test');
      expect(claims.exp! * 1000).toBeGreaterThan(Date.now());
      expect(claims.exp! * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    }
    expect(await settled(messageId)).toBe('sent');
    await sleep(1500); // the worker polls every second: a second send would show by now
    expect(fake.requests.filter((r) => r.path === a.path || r.path === b.path)).toHaveLength(2);
  });

  it('R10.7 a subscription the push service answers 410 Gone (or 404) is deleted', async () => {
    const m = await member();
    const gone = await subscribe(m, `/gone/${randomUUID()}`);
    const missing = await subscribe(m, `/missing/${randomUUID()}`);
    const kept = await subscribe(m);
    fake.answer(gone.path, 410);
    fake.answer(missing.path, 404);
    await specialistSays(m.conversationId, 'Odpoveď');
    await fake.waitFor(1, gone.path);
    await fake.waitFor(1, missing.path);
    const left = await until(async () => {
      const r = await m.client.from('push_subscriptions').select('endpoint');
      const endpoints = (r.data as { endpoint: string }[]).map((s) => s.endpoint);
      return endpoints.length === 1 ? endpoints : undefined;
    }, 'the gone subscriptions to be pruned');
    expect(left).toEqual([kept.endpoint]);
  });

  it('R10.2 no notification when the read cursor passed the message within D; one after D when it did not', async () => {
    await setDelay(3);
    try {
      const m = await member();
      const dev = await subscribe(m);
      const readId = await specialistSays(m.conversationId, 'Prečítané hneď');
      const mark = await m.client.rpc('mark_read', { p_conversation_id: m.conversationId, p_message_id: readId });
      expect(mark.error).toBeNull();
      expect(await settled(readId)).toBe('seen');

      const before = Date.now();
      const unreadId = await specialistSays(m.conversationId, 'Neprečítané');
      const [req] = await fake.waitFor(1, dev.path);
      expect(Date.now() - before).toBeGreaterThanOrEqual(2900);
      expect(JSON.parse(decryptPush(req!.body, dev.keys))).toMatchObject({ messageId: unreadId });
      expect(fake.requests.filter((r) => r.path === dev.path)).toHaveLength(1);
    } finally {
      await setDelay(1);
    }
  });

  it('R10.3 no notification while a device reports the chat visible; after push_viewing(null) there is one', async () => {
    const m = await member();
    const dev = await subscribe(m);
    expect((await m.client.rpc('push_viewing', { p_conversation_id: m.conversationId })).error).toBeNull();
    const seenId = await specialistSays(m.conversationId, 'Vidí to');
    expect(await settled(seenId)).toBe('seen');
    expect((await m.client.rpc('push_viewing', { p_conversation_id: null })).error).toBeNull();
    const sentId = await specialistSays(m.conversationId, 'Nevidí to');
    const [req] = await fake.waitFor(1, dev.path);
    expect(JSON.parse(decryptPush(req!.body, dev.keys))).toMatchObject({ messageId: sentId });
    // A report older than viewing_fresh_seconds no longer counts.
    expect((await m.client.rpc('push_viewing', { p_conversation_id: m.conversationId })).error).toBeNull();
    await pool.query(`update public.push_viewing set updated_at = now() - interval '31 seconds' where user_id = $1`, [m.userId]);
    const staleId = await specialistSays(m.conversationId, 'Zastarané');
    expect(await settled(staleId)).toBe('sent');
  });

  it("R10.4 the user's own messages, and what their own request wrote (a chat's welcome), are never notified", async () => {
    const client = anonClient({ url: stack.url, anonKey: stack.keys.anonKey });
    await signUpConfirmed(stack, client, { email: uniqueEmail('push-own'), password: 'heslo12345' });
    const keys = deviceKeys();
    const path = `/own/${randomUUID()}`;
    await client.rpc('push_subscribe', { p_endpoint: fake.url + path, p_p256dh: keys.p256dh, p_auth: keys.auth });
    const conv = await client.rpc('ensure_first_conversation'); // writes the assistant's welcome
    const conversationId = (conv.data as { conversation_id: string }).conversation_id;
    const sent = await client.rpc('send_message', { p_conversation_id: conversationId, p_text: 'Moja otázka', p_client_correlation_id: randomUUID() });
    expect(sent.error).toBeNull();
    // The AI's reply (written by the worker, not by the user) is notified — and only it.
    const [req] = await fake.waitFor(1, path);
    const payload = JSON.parse(decryptPush(req!.body, keys)) as { messageId: string };
    const msgs = await pool.query<{ id: string; direction: string; source: string | null; queued: number }>(
      `select m.id, m.direction, m.source, (select count(*)::int from public.push_notifications n where n.message_id = m.id) as queued
         from public.messages m where m.conversation_id = $1 order by m.created_at`,
      [conversationId],
    );
    const queued = msgs.rows.filter((r) => r.queued > 0);
    expect(queued.map((r) => r.id)).toEqual([payload.messageId]);
    expect(queued[0]).toMatchObject({ direction: 'specialist', source: 'ai' });
    expect(msgs.rows.filter((r) => r.direction === 'user').every((r) => r.queued === 0)).toBe(true);
    expect(msgs.rows.length).toBeGreaterThanOrEqual(3); // welcome, question, reply
  });

  it('R10.5 one notification per device per message: a retry after a 5xx resends only to the device that failed', async () => {
    const m = await member();
    const flaky = await subscribe(m, `/flaky/${randomUUID()}`);
    const steady = await subscribe(m);
    fake.answer(flaky.path, 503);
    const messageId = await specialistSays(m.conversationId, 'Skúsime znova');
    await fake.waitFor(1, flaky.path);
    await fake.waitFor(1, steady.path);
    fake.answer(flaky.path, 201);
    const flakyReqs = await fake.waitFor(2, flaky.path, 45_000); // backoff 10 s
    expect(await settled(messageId)).toBe('sent');
    for (const r of flakyReqs) expect(JSON.parse(decryptPush(r.body, flaky.keys))).toMatchObject({ messageId });
    expect(fake.requests.filter((r) => r.path === steady.path)).toHaveLength(1);
    // Two messages of one chat share the Topic, so the push service keeps only the newer one pending.
    expect(flakyReqs[0]!.headers.topic).toBe(fake.requests.find((r) => r.path === steady.path)!.headers.topic);
  });

  // Issue 36 N3: the worker used to send a claimed batch one notification at a time and wait up to
  // web-push's 10 s timeout for each device, so one member's unanswering phone held every other
  // account's notification behind it. The dead device's request is made first and kept hanging; the
  // other member's notification must reach the push service while that request is still open.
  it("R10.16 one member's unanswering device does not hold up another member's notification", async () => {
    const { hung: dead, live: alive, dead: deadDevice, alive: aliveDevice } = await hungAndLive('dead');
    await specialistSays(dead.conversationId, 'Pre nedostupné zariadenie');
    await fake.waitFor(1, deadDevice.path);
    expect(fake.hanging(deadDevice.path)).toBe(1);
    await specialistSays(alive.conversationId, 'Pre živé zariadenie');
    const [req] = await fake.waitFor(1, aliveDevice.path);
    expect(decryptPush(req!.body, aliveDevice.keys)).toContain('Pre živé zariadenie');
    expect(fake.hanging(deadDevice.path), 'the dead device is still being waited for').toBe(1);
  });

  it('R10.16 a device whose push service did not answer is not called again for a minute: its next notification is deferred at once', async () => {
    const m = await member();
    const device = await subscribe(m, `/down/${randomUUID()}`);
    fake.drop(device.path);
    const first = await specialistSays(m.conversationId, 'Prvá');
    await fake.waitFor(1, device.path);
    await until(async () => ((await answerOf(first)) === 0 ? true : undefined), 'the first send to find no answer');
    const second = await specialistSays(m.conversationId, 'Druhá');
    // Recorded as "no answer" (0: the queue retries it later) without a connection to the service.
    await until(async () => ((await answerOf(second)) === 0 ? true : undefined), 'the second send to be deferred');
    expect(fake.requests.filter((r) => r.path === device.path)).toHaveLength(1);
  });
  it('R10.17 a retry goes only to the devices of the first attempt: a device subscribed since gets nothing', async () => {
    const m = await member();
    const flaky = await subscribe(m, `/flaky/${randomUUID()}`);
    fake.answer(flaky.path, 500); // a transient refusal: the queue retries this device
    const messageId = await specialistSays(m.conversationId, 'Skúste znova');
    await fake.waitFor(1, flaky.path);
    await until(async () => ((await attemptsOf(messageId)) === '1 pending' ? true : undefined), 'the first attempt to be recorded');
    const later = await subscribe(m);
    // The retry's backoff (10 s × attempts) is the queue's clock; move it instead of waiting it out.
    await pool.query('update public.push_notifications set due_at = now() where message_id = $1', [messageId]);
    await fake.waitFor(2, flaky.path);
    await until(async () => ((await attemptsOf(messageId)) === '2 pending' ? true : undefined), 'the retry to be recorded');
    expect(fake.requests.filter((r) => r.path === later.path), 'the device subscribed after the first attempt').toHaveLength(0);
    const devices = await pool.query('select d.subscription_id from public.push_deliveries d join public.push_notifications n on n.id = d.notification_id where n.message_id = $1', [messageId]);
    expect(devices.rows).toHaveLength(1);
  });

  it('R10.16 a push service that takes the connection but never completes TLS is cut before a hung answer times out', async () => {
    // Ordering, not a stopwatch: a request that reached a push service which never answers is held
    // for the 10 s answer timeout; a handshake started after it must be cut while it is still held.
    const stalled = new Set<Socket>();
    let cut: () => void = () => undefined;
    const cutOff = new Promise<void>((r) => (cut = r));
    const tcp = createTcpServer((s) => {
      stalled.add(s);
      s.resume(); // read (and drop) the ClientHello, so the sender's close is seen; never answer
      s.on('close', () => cut());
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    try {
      const holder = await member();
      const held = await subscribe(holder, `/held/${randomUUID()}`);
      fake.hang(held.path);
      await specialistSays(holder.conversationId, 'Odpoveď, na ktorú služba neodpovie');
      await fake.waitFor(1, held.path);

      const m = await member();
      const keys = deviceKeys();
      const endpoint = `https://127.0.0.1:${(tcp.address() as AddressInfo).port}/stall/${randomUUID()}`;
      const r = await m.client.rpc('push_subscribe', { p_endpoint: endpoint, p_p256dh: keys.p256dh, p_auth: keys.auth, p_user_agent: 'vitest' });
      expect(r.error).toBeNull();
      const messageId = await specialistSays(m.conversationId, 'Pre zariadenie bez TLS');
      await cutOff;
      expect(stalled.size).toBe(1);
      expect(fake.hanging(held.path), 'the hung request is still held: the handshake was cut sooner').toBe(1);
      await until(async () => ((await answerOf(messageId)) === 0 ? true : undefined), 'the cut send to be recorded as no answer');
    } finally {
      for (const s of stalled) s.destroy();
      await new Promise<void>((r) => tcp.close(() => r()));
    }
  });

  it("R10.18 a member with 70 notifications for a device that never answers holds at most 4 sends; another member's push goes out meanwhile", async () => {
    const { hung: flooder, live: other, dead, alive } = await hungAndLive('flood');
    const rows = Array.from({ length: 70 }, (_, i) => ({ conversation_id: flooder.conversationId, text: `Správa ${i}`, type: 'text', direction: 'specialist', source: 'chatwoot' }));
    const ins = await svc.from('messages').insert(rows);
    expect(ins.error).toBeNull();
    await fake.waitFor(PER_USER_IN_FLIGHT, dead.path);
    await specialistSays(other.conversationId, 'Pre iného člena');
    const [req] = await fake.waitFor(1, alive.path);
    expect(decryptPush(req!.body, alive.keys)).toContain('Pre iného člena');
    // The flooder's first sends are still held (the 10 s answer timeout has not run out), and no more
    // than the cap reached their device.
    expect(fake.hanging(dead.path), "the flooder's sends are still held").toBeGreaterThan(0);
    expect(fake.requests.filter((r) => r.path === dead.path).length).toBeLessThanOrEqual(PER_USER_IN_FLIGHT);
  });
});

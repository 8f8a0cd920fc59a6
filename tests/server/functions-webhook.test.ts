// chatwoot-webhook on a dedicated stack with CHATWOOT_WEBHOOK_SECRET set: the URL secret and the
// HMAC signature are checked, {webhook_test} answers 200, deliveries are idempotent, private notes
// never become messages, a resolved conversation completes ours, and every accepted event lands in
// integration_events. Payloads come from the Chatwoot double (real webhook shapes), replayed by hand
// where a test needs the same event twice or a tampered one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../doubles/chatwoot/webhooks.ts';
import type { ChatwootDouble } from '../doubles/chatwoot/server.ts';
import {
  SPECIALIST,
  call,
  freshUser,
  messagesOf,
  rawPost,
  sql,
  startChatwootWorld,
  type ChatwootWorld,
  type Reply,
  type StackRef,
} from './functions-helpers.ts';

let world: ChatwootWorld;
let SECRET: string;
let double: ChatwootDouble;
let ref: StackRef;
let conversationId: string;
let displayId: number;
let since: Date;

beforeAll(async () => {
  // The shared Chatwoot world: a stack with the webhook secret, chatwoot_config and the double's
  // webhook registered for the four events this test follows.
  world = await startChatwootWorld();
  ({ double, ref, secret: SECRET } = world);
  since = (await sql<{ now: Date }>(ref, 'select now()'))[0]!.now;

  // Our conversation, linked by hand to a conversation of the double's first inbox.
  const u = await freshUser(ref, 'hook');
  conversationId = (await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body
    .conversation_id as string;
  const { contactInbox } = double.createContact(double.inboxes[0]!.id, { name: 'Webhook test' });
  displayId = double.openConversation(contactInbox.id).displayId;
  await sql(ref, 'update conversations set chatwoot_conversation_id = $2 where id = $1', [
    conversationId,
    displayId,
  ]);
});

afterAll(async () => {
  await world?.stop();
});

/** POSTs a raw body to the webhook the way Chatwoot would, optionally signed (or mis-signed). */
let acceptedByHand = 0;
async function deliver(
  body: string,
  opts: { secret?: string | null; sign?: 'valid' | 'wrong' | 'stale' | 'none' } = {},
): Promise<Reply> {
  const secret = opts.secret === undefined ? SECRET : opts.secret;
  const headers: Record<string, string> = {};
  const sign = opts.sign ?? 'valid';
  if (sign !== 'none') {
    const ts = String(Math.floor(Date.now() / 1000) - (sign === 'stale' ? 3600 : 0));
    headers['x-chatwoot-timestamp'] = ts;
    headers['x-chatwoot-delivery'] = crypto.randomUUID();
    headers['x-chatwoot-signature'] = signWebhook(sign === 'wrong' ? 'not-the-secret' : SECRET, ts, body);
  }
  const reply = await rawPost(ref, 'chatwoot-webhook', body, {
    query: secret === null ? '' : `?secret=${encodeURIComponent(secret)}`,
    headers,
  });
  if (reply.status === 200) acceptedByHand += 1;
  return reply;
}

async function events(): Promise<{ kind: string; level: string; data: Record<string, unknown> }[]> {
  // Only this file's events: the seed has some of its own.
  return sql(
    ref,
    'select kind, level, data from integration_events where created_at >= $1 order by created_at, id',
    [since],
  );
}

async function lastDelivery(event: string, index = -1): Promise<string> {
  await double.webhooksIdle();
  const d = double.webhookDeliveries.filter((x) => x.event === event).at(index);
  if (!d) throw new Error(`no ${event} delivery`);
  return d.body;
}

describe('chatwoot-webhook authentication', () => {
  it('refuses a missing, wrong or partial secret (401) and stores nothing', async () => {
    double.agentReply(displayId, 'Pre overenie podpisu.');
    const body = await lastDelivery('message_created');
    const before = (await events()).length;
    const rows = (await messagesOf(ref, conversationId)).length;
    for (const secret of [null, '', 'x'.repeat(40), SECRET.slice(0, 39), `${SECRET}x`])
      expect(await deliver(body, { secret }), String(secret)).toEqual({
        status: 401,
        body: { error: 'Invalid webhook secret' },
      });
    expect((await events()).length).toBe(before);
    expect((await messagesOf(ref, conversationId)).length).toBe(rows);
  });

  it('refuses a bad or stale HMAC signature even with the right secret (401)', async () => {
    const body = JSON.stringify({ event: 'conversation_status_changed', id: displayId, status: 'resolved' });
    expect(await deliver(body, { sign: 'wrong' })).toEqual({
      status: 401,
      body: { error: 'Invalid webhook signature' },
    });
    expect(await deliver(body, { sign: 'stale' })).toEqual({
      status: 401,
      body: { error: 'Invalid webhook signature' },
    });
    // A valid signature over a different body is refused too.
    const ts = String(Math.floor(Date.now() / 1000));
    const tampered = await rawPost(ref, 'chatwoot-webhook', body.replace('resolved', 'snoozed'), {
      query: `?secret=${SECRET}`,
      headers: { 'x-chatwoot-timestamp': ts, 'x-chatwoot-signature': signWebhook(SECRET, ts, body) },
    });
    expect(tampered.status).toBe(401);
    const [conv] = await sql<{ status: string }>(ref, 'select status from conversations where id = $1', [
      conversationId,
    ]);
    expect(conv?.status).toBe('active');
  });

  it('answers the {webhook_test} probe 200 without a secret, checks a secret it is given', async () => {
    const probe = JSON.stringify({ webhook_test: true });
    expect(await rawPost(ref, 'chatwoot-webhook', probe)).toEqual({ status: 200, body: { ok: true, test: true } });
    expect(await rawPost(ref, 'chatwoot-webhook', probe, { query: `?secret=${SECRET}` })).toEqual({
      status: 200,
      body: { ok: true, test: true, secret: 'valid' },
    });
    expect(await rawPost(ref, 'chatwoot-webhook', probe, { query: '?secret=wrong' })).toEqual({
      status: 401,
      body: { error: 'Invalid webhook secret' },
    });
  });

  it('accepts the right secret without a signature (Chatwoot 4.10 does not sign) and with a valid one', async () => {
    const body = JSON.stringify({
      event: 'conversation_updated',
      id: displayId,
      status: 'open',
      account: { id: double.accountId },
    });
    expect((await deliver(body, { sign: 'none' })).status).toBe(200);
    expect((await deliver(body)).status).toBe(200);
    const last = (await events()).slice(-2).map((e) => e.data.signed);
    expect(last).toEqual([false, true]);
  });
});

describe('chatwoot-webhook mapping', () => {
  it('stores an agent reply once, however often the same message_created arrives', async () => {
    const reply = double.agentReply(displayId, 'Dobrý deň, pozriem sa na to.');
    const body = await lastDelivery('message_created');
    expect(JSON.parse(body)).toMatchObject({ id: reply.id, event: 'message_created' });
    expect(double.webhookDeliveries.at(-1)).toMatchObject({ status: 200, signed: true });
    expect(await deliver(body)).toEqual({ status: 200, body: { ok: true, outcome: 'exists' } });
    const twice = await Promise.all([deliver(body), deliver(body)]);
    expect(twice.map((r) => r.body.outcome)).toEqual(['exists', 'exists']);

    const stored = (await messagesOf(ref, conversationId)).filter(
      (m) => m.chatwoot_message_id === String(reply.id),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      direction: 'specialist',
      text: 'Dobrý deň, pozriem sa na to.',
      source: 'chatwoot',
    });
    const outcomes = (await events())
      .filter((e) => e.kind === 'webhook.message_created' && e.data.chatwoot_message_id === reply.id)
      .map((e) => e.data.outcome);
    expect(outcomes).toEqual(['inserted', 'exists', 'exists', 'exists']);
  });

  it('applies message_updated to the stored message and a replay changes nothing', async () => {
    const reply = double.agentReply(displayId, 'Preklep v odpovedi');
    await double.webhooksIdle();
    const message = double.store.messages.get(reply.id as number)!;
    double.actions.updateMessage(message, { content: 'Opravená odpoveď' });
    const body = await lastDelivery('message_updated');
    expect(await deliver(body)).toEqual({ status: 200, body: { ok: true, outcome: 'updated' } });
    const stored = (await messagesOf(ref, conversationId)).filter(
      (m) => m.chatwoot_message_id === String(reply.id),
    );
    expect(stored.map((m) => m.text)).toEqual(['Opravená odpoveď']);
  });

  it('stores an attachment reply as a rich message with its files', async () => {
    const reply = double.agentReply(displayId, 'Posielam návrh.', {
      attachments: [
        {
          fileType: 'image',
          dataUrl: 'https://cdn.example/navrh.png',
          thumbUrl: 'https://cdn.example/navrh-t.png',
          fileSize: 2048,
          width: 800,
          height: 600,
        },
        {
          fileType: 'file',
          dataUrl: 'https://cdn.example/brief.pdf',
          thumbUrl: '',
          fileSize: 4096,
          width: null,
          height: null,
        },
      ],
    });
    await double.webhooksIdle();
    const [row] = (await messagesOf(ref, conversationId)).filter(
      (m) => m.chatwoot_message_id === String(reply.id),
    );
    expect(row).toMatchObject({ type: 'rich', text: 'Posielam návrh.', direction: 'specialist' });
    expect(row!.payload).toMatchObject({
      kind: 'rich_content',
      attachments: [
        { file_type: 'image', data_url: 'https://cdn.example/navrh.png', width: 800, height: 600 },
        { file_type: 'document', data_url: 'https://cdn.example/brief.pdf', file_size: 4096 },
      ],
    });
  });

  it('never turns a private note into a message', async () => {
    const before = (await messagesOf(ref, conversationId)).length;
    const note = double.agentReply(displayId, 'Interná poznámka: klient je VIP', { private: true });
    const body = await lastDelivery('message_created');
    expect(JSON.parse(body)).toMatchObject({ id: note.id, private: true });
    expect(await deliver(body)).toEqual({ status: 200, body: { ok: true, ignored: 'not user-visible' } });
    const rows = await messagesOf(ref, conversationId);
    expect(rows).toHaveLength(before);
    expect(rows.some((m) => (m.text ?? '').includes('Interná'))).toBe(false);
    const recorded = (await events()).filter((e) => e.data.skipped === 'private note');
    expect(recorded.length).toBeGreaterThanOrEqual(2);
  });

  it('ignores events of a foreign Chatwoot account and unknown conversations, but records them', async () => {
    const foreign = JSON.stringify({
      event: 'message_created',
      id: 999_001,
      content: 'cudzí',
      message_type: 'outgoing',
      account: { id: 77 },
      conversation: { id: displayId },
    });
    expect(await deliver(foreign)).toEqual({ status: 200, body: { ok: true, ignored: 'foreign account' } });
    const unknown = JSON.stringify({
      event: 'message_created',
      id: 999_002,
      content: 'nikde',
      message_type: 'outgoing',
      conversation: { id: 987_654 },
    });
    expect(await deliver(unknown)).toEqual({
      status: 200,
      body: { ok: true, ignored: 'unknown conversation' },
    });
    const [n] = await sql<{ n: string }>(
      ref,
      'select count(*) as n from messages where chatwoot_message_id in (999001, 999002)',
    );
    expect(n?.n).toBe('0');
    const levels = (await events()).filter(
      (e) => e.data.reason === 'foreign account' || e.data.reason === 'unknown conversation',
    );
    expect(levels.map((e) => e.level)).toEqual(['warning', 'warning']);
  });

  it('completes our conversation when Chatwoot resolves it, once', async () => {
    double.resolve(displayId);
    await double.webhooksIdle();
    const [conv] = await sql<{ status: string }>(ref, 'select status from conversations where id = $1', [
      conversationId,
    ]);
    expect(conv?.status).toBe('completed');
    const body = await lastDelivery('conversation_status_changed');
    expect(await deliver(body)).toEqual({ status: 200, body: { ok: true, status: 'completed' } });
    // No activity line ("Conversation was marked resolved…") reached our messages.
    expect((await messagesOf(ref, conversationId)).some((m) => (m.text ?? '').includes('resolved'))).toBe(
      false,
    );
  });

  it('records every accepted delivery in integration_events, exactly once each', async () => {
    await double.webhooksIdle();
    expect(double.webhookDeliveries.every((d) => d.status === 200)).toBe(true);
    const recorded = (await events()).filter((e) => e.kind.startsWith('webhook.'));
    // The double's deliveries plus the ones posted by hand; refused ones and the probe left no trace.
    expect(recorded).toHaveLength(double.webhookDeliveries.length + acceptedByHand);
    const kinds = (list: string[]) => [...new Set(list)].sort();
    expect(kinds(recorded.map((e) => e.kind))).toEqual(
      kinds([
        ...double.webhookDeliveries.map((d) => `webhook.${d.event}`),
        'webhook.conversation_updated',
        'webhook.message_created',
      ]),
    );
  });
});

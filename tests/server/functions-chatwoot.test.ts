// A Chatwoot round trip against the double with the REAL @rails/actioncable client: the member sends
// through admin-chatwoot-send, an agent answers in Chatwoot (webhook -> our messages, RoomChannel ->
// the member's socket), typing shows on the socket, and resolving completes our conversation.
// Tests run in order and share one conversation.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActionCable, RoomListener, type CableConsumer } from '../doubles/chatwoot/cable-client.ts';
import {
  SEEDED,
  SPECIALIST,
  call,
  messagesOf,
  signIn,
  sql,
  startChatwootWorld,
  waitFor,
  type ChatwootWorld,
  type Client,
} from './functions-helpers.ts';

let world: ChatwootWorld;
let demo: Client;
let conversationId: string;
let displayId: number;
let consumer: CableConsumer | undefined;
let room: RoomListener;
const correlation = randomUUID();
const CONTENT = 'Dobrý deň, potrebujem pomôcť s textom na web.';

beforeAll(async () => {
  world = await startChatwootWorld();
  demo = await signIn(world.ref, SEEDED.demo);
  const started = await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana });
  expect(started.status).toBe(200);
  conversationId = started.body.conversation_id as string;
});

afterAll(async () => {
  consumer?.disconnect();
  await world?.stop();
});

const sends = () =>
  world.double.requests.filter(
    (r) => r.method === 'POST' && /\/api\/v1\/accounts\/\d+\/conversations\/\d+\/messages$/.test(r.path),
  );
const chatwootMessagesWith = (sourceId: string) =>
  [...world.double.store.messages.values()].filter((m) => m.sourceId === sourceId);

describe('Chatwoot round trip', () => {
  it('a member sends through admin-chatwoot-send: Chatwoot has it with source_id, our DB has one row', async () => {
    const r = await call(demo, 'admin-chatwoot-send', {
      conversation_id: conversationId,
      content: CONTENT,
      client_correlation_id: correlation,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      hasChatwoot: true,
      messageData: { conversation_id: conversationId, client_correlation_id: correlation },
    });
    displayId = r.body.chatwoot_conversation_id as number;
    expect(displayId).toBeGreaterThan(0);

    // In Chatwoot: a conversation in Zuzana's inbox, linked back to ours, with the message once.
    const conv = world.double.actions.conversation(world.double.accountId, displayId);
    expect(conv.inboxId).toBe(world.inboxOf[SPECIALIST.zuzana]);
    expect(conv.customAttributes).toEqual({ poradna_conversation_id: conversationId });
    const inChatwoot = chatwootMessagesWith(correlation);
    expect(inChatwoot).toHaveLength(1);
    expect(inChatwoot[0]).toMatchObject({ content: CONTENT, messageType: 0, private: false });
    // The reply names Chatwoot's message even when the webhook echo stored the id first.
    expect((r.body.messageData as { chatwoot_message_id: number }).chatwoot_message_id).toBe(
      inChatwoot[0]!.id,
    );
    expect(sends()).toHaveLength(1);
    expect(sends()[0]!.body).toMatchObject({
      content: CONTENT,
      message_type: 'incoming',
      source_id: correlation,
      echo_id: correlation,
    });
    expect(sends()[0]!.hadToken).toBe(true);

    // In our DB: exactly one row, carrying Chatwoot's id once the echo (webhook) came back.
    await world.double.webhooksIdle();
    const rows = (await messagesOf(world.ref, conversationId)).filter((m) => m.text === CONTENT);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      direction: 'user',
      client_correlation_id: correlation,
      chatwoot_message_id: String(inChatwoot[0]!.id),
    });
    const [linked] = await sql<{ chatwoot_conversation_id: string }>(
      world.ref,
      'select chatwoot_conversation_id::text from conversations where id = $1',
      [conversationId],
    );
    expect(linked?.chatwoot_conversation_id).toBe(String(displayId));
    // Nothing for the AI worker: the conversation goes through Chatwoot.
    const [jobs] = await sql<{ n: string }>(
      world.ref,
      'select count(*) as n from ai_reply_jobs where conversation_id = $1',
      [conversationId],
    );
    expect(jobs?.n).toBe('0');
  });

  it("chatwoot-pubsub-token hands out the account's contact token and RoomChannel confirms it", async () => {
    const r = await call(demo, 'chatwoot-pubsub-token', {});
    expect(r.status).toBe(200);
    const conv = world.double.actions.conversation(world.double.accountId, displayId);
    const contactInbox = world.double.store.contactInboxes.get(conv.contactInboxId)!;
    expect(r.body).toMatchObject({
      pubsub_token: contactInbox.pubsubToken,
      account_id: world.double.accountId,
    });
    expect(r.body.tokens).toEqual([{ inbox_id: conv.inboxId, pubsub_token: contactInbox.pubsubToken }]);

    const cable = await loadActionCable();
    consumer = cable.createConsumer(world.double.cableUrl);
    room = new RoomListener(consumer, {
      pubsub_token: r.body.pubsub_token as string,
      account_id: r.body.account_id as number,
    });
    await room.connected(5000);
  });

  it('an agent reply reaches our DB once through the webhook and the member socket as message.created', async () => {
    const reply = world.double.agentReply(
      displayId,
      'Dobrý deň, rada pomôžem. Pošlite mi prosím odkaz na web.',
    );
    const frame = await room.frame(
      (f) => f.event === 'message.created' && f.data.id === reply.id,
      'message.created',
      5000,
    );
    expect(frame.data).toMatchObject({
      content: 'Dobrý deň, rada pomôžem. Pošlite mi prosím odkaz na web.',
      message_type: 1,
      conversation_id: displayId,
    });

    await world.double.webhooksIdle();
    const stored = await waitFor(async () => {
      const rows = (await messagesOf(world.ref, conversationId)).filter(
        (m) => m.chatwoot_message_id === String(reply.id),
      );
      return rows.length ? rows : null;
    }, 'the stored agent reply');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ direction: 'specialist', source: 'chatwoot' });
    // The member's unread count sees it.
    const counts = (await demo.rpc('get_unread_counts')).data as {
      conversation_id: string;
      unread_count: number;
    }[];
    expect(counts.find((c) => c.conversation_id === conversationId)?.unread_count).toBeGreaterThanOrEqual(1);
  });

  it('a private note reaches neither the member socket nor our messages', async () => {
    const before = (await messagesOf(world.ref, conversationId)).length;
    const note = world.double.agentReply(displayId, 'Interná poznámka pre kolegov', { private: true });
    const marker = world.double.agentReply(displayId, 'Ešte jedna verejná správa');
    await room.frame(
      (f) => f.event === 'message.created' && f.data.id === marker.id,
      'the public message after the note',
      5000,
    );
    expect(room.frames.some((f) => f.data.id === note.id)).toBe(false);
    await world.double.webhooksIdle();
    const rows = await messagesOf(world.ref, conversationId);
    expect(rows).toHaveLength(before + 1);
    expect(rows.some((m) => m.text === 'Interná poznámka pre kolegov')).toBe(false);
  });

  it('typing on and off arrive on the socket', async () => {
    world.double.setTyping(displayId, true);
    const on = await room.frame((f) => f.event === 'conversation.typing_on', 'typing_on', 5000);
    expect(on.data).toMatchObject({ conversation: { id: displayId }, user: { type: 'user' } });
    world.double.setTyping(displayId, false);
    await room.frame((f) => f.event === 'conversation.typing_off', 'typing_off', 5000);
  });

  it('retrying the same send posts nothing new to Chatwoot and stores nothing new', async () => {
    const first = chatwootMessagesWith(correlation)[0]!;
    const r = await call(demo, 'admin-chatwoot-send', {
      conversation_id: conversationId,
      content: CONTENT,
      client_correlation_id: correlation,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      messageData: { client_correlation_id: correlation, chatwoot_message_id: first.id },
    });
    expect(sends()).toHaveLength(1);
    expect(chatwootMessagesWith(correlation)).toHaveLength(1);
    expect(
      (await messagesOf(world.ref, conversationId)).filter((m) => m.client_correlation_id === correlation),
    ).toHaveLength(1);
  });

  it('resolving in Chatwoot completes our conversation and the socket hears the status change', async () => {
    world.double.resolve(displayId);
    const frame = await room.frame((f) => f.event === 'conversation.status_changed', 'status_changed', 5000);
    expect(frame.data).toMatchObject({ id: displayId, status: 'resolved' });
    await world.double.webhooksIdle();
    await waitFor(async () => {
      const [c] = await sql<{ status: string }>(world.ref, 'select status from conversations where id = $1', [
        conversationId,
      ]);
      return c?.status === 'completed';
    }, 'our conversation completed');
    // A new message into the completed conversation is refused; a retry of the old one still answers.
    const late = await call(demo, 'admin-chatwoot-send', {
      conversation_id: conversationId,
      content: 'Ešte otázka',
      client_correlation_id: randomUUID(),
    });
    expect(late).toEqual({ status: 409, body: { success: false, error: 'Konverzácia je ukončená' } });
    const retry = await call(demo, 'admin-chatwoot-send', {
      conversation_id: conversationId,
      content: CONTENT,
      client_correlation_id: correlation,
    });
    expect(retry.status).toBe(200);
    expect(sends()).toHaveLength(1);
  });
});

// The member-facing functions through the shared stack with supabase.functions.invoke:
// test-function, ensure-first-conversation, start-conversation, conversation-read and
// chatwoot-pubsub-token. Seeded users are only read here; anything that writes uses a fresh user.
import { describe, expect, inject, it } from 'vitest';
import {
  SEEDED,
  SPECIALIST,
  accessToken,
  anonDb,
  call,
  freshUser,
  messagesOf,
  rawPost,
  repliesAfter,
  sendMessage,
  serviceDb,
  signIn,
  sql,
  waitFor,
} from './functions-helpers.ts';

const stack = inject('stack');

describe('test-function (public)', () => {
  it('echoes the message without any session', async () => {
    const r = await call(anonDb(stack), 'test-function', { message: 'ahoj' });
    expect(r).toMatchObject({ status: 200, body: { ok: true, echo: 'ahoj' } });
    expect(typeof r.body.received_at).toBe('string');
  });

  it('needs no JWT at all', async () => {
    const r = await rawPost(stack, 'test-function', JSON.stringify({ message: 'bez tokenu' }));
    expect(r).toMatchObject({ status: 200, body: { echo: 'bez tokenu' } });
  });

  it('answers 400 for a non-string message and for broken JSON', async () => {
    expect(await call(anonDb(stack), 'test-function', { message: 42 })).toEqual({
      status: 400,
      body: { error: 'message must be a string' },
    });
    expect(await rawPost(stack, 'test-function', '{"message":')).toEqual({
      status: 400,
      body: { error: 'Request body must be valid JSON' },
    });
    expect(await rawPost(stack, 'test-function', '[1,2]')).toEqual({
      status: 400,
      body: { error: 'Request body must be a JSON object' },
    });
  });
});

describe('ensure-first-conversation', () => {
  it('opens the first conversation with the assistant once, then answers with it', async () => {
    const u = await freshUser(stack);
    const first = await call(u.client, 'ensure-first-conversation');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: true });
    const id = first.body.conversation_id as string;
    const [conv] = await sql<{ specialist_id: string }>(
      stack,
      'select specialist_id from conversations where id = $1',
      [id],
    );
    expect(conv?.specialist_id).toBe(SPECIALIST.assistant);
    const msgs = await messagesOf(stack, id);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ direction: 'specialist' });

    const again = await call(u.client, 'ensure-first-conversation', {});
    expect(again).toEqual({ status: 200, body: { conversation_id: id, created: false } });
    expect(await messagesOf(stack, id)).toHaveLength(1);
  });

  it('answers the seeded member with an existing conversation', async () => {
    const r = await call(await signIn(stack, SEEDED.demo), 'ensure-first-conversation');
    expect(r.status).toBe(200);
    expect(r.body.created).toBe(false);
  });

  it('refuses a call without a JWT (401) and with only the anon key (401)', async () => {
    expect((await rawPost(stack, 'ensure-first-conversation', '{}')).status).toBe(401);
    expect(await call(anonDb(stack), 'ensure-first-conversation')).toEqual({
      status: 401,
      body: { error: 'No auth token available' },
    });
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const token = await accessToken(await signIn(stack, SEEDED.demo));
    expect(await rawPost(stack, 'ensure-first-conversation', 'nie json', { token })).toEqual({
      status: 400,
      body: { error: 'Request body must be valid JSON' },
    });
  });
});

describe('start-conversation', () => {
  it('opens a conversation with a specialist of the plan, and created:false on repeat', async () => {
    const u = await freshUser(stack);
    // The welcome comes from the card's own (server-written) payload, never from the caller.
    const home = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const [card] = await sql<{ id: string }>(
      stack,
      `insert into public.messages (conversation_id, text, type, direction, source, payload)
       values ($1, null, 'json', 'specialist', 'system', $2) returning id`,
      [home, { kind: 'rich_content', specialist_id: SPECIALIST.lucia, welcome_text: 'Vitajte u Lucie!' }],
    );
    const body = {
      specialist_id: SPECIALIST.lucia,
      card_id: card!.id,
      welcome_text: 'Tento text sa ignoruje',
    };
    const first = await call(u.client, 'start-conversation', body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: true });
    const id = first.body.conversation_id as string;
    const msgs = await messagesOf(stack, id);
    expect(msgs.map((m) => [m.direction, m.text])).toEqual([['specialist', 'Vitajte u Lucie!']]);

    const again = await call(u.client, 'start-conversation', body);
    expect(again).toEqual({ status: 200, body: { conversation_id: id, created: false } });
    expect(await messagesOf(stack, id)).toHaveLength(1);
  });

  it('refuses (403) a specialist the account plan does not include', async () => {
    const u = await freshUser(stack); // plan FREE
    const r = await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.peter });
    expect(r).toEqual({ status: 403, body: { error: 'This specialist is not available for your account' } });
    const [n] = await sql<{ n: string }>(
      stack,
      'select count(*) as n from conversations c join account_users au on au.account_id = c.account_id where au.user_id = $1',
      [u.userId],
    );
    expect(n?.n).toBe('0');
  });

  it('always admits the assistant', async () => {
    const u = await freshUser(stack);
    const r = await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.assistant });
    expect(r).toMatchObject({ status: 200, body: { created: true } });
  });

  it('answers 400 for a bad body and 404 for an unknown specialist', async () => {
    const demo = await signIn(stack, SEEDED.demo);
    expect(await call(demo, 'start-conversation', {})).toEqual({
      status: 400,
      body: { error: 'specialist_id must be a UUID' },
    });
    expect(await call(demo, 'start-conversation', { specialist_id: 'lucia' })).toEqual({
      status: 400,
      body: { error: 'specialist_id must be a UUID' },
    });
    expect(await call(demo, 'start-conversation', { specialist_id: SPECIALIST.lucia, card_id: 7 })).toEqual({
      status: 400,
      body: { error: 'card_id must be a string' },
    });
    expect(
      await call(demo, 'start-conversation', { specialist_id: '00000000-0000-4000-8000-0000000000ff' }),
    ).toEqual({
      status: 404,
      body: { error: 'Specialist not found' },
    });
  });

  it('refuses a call without a JWT', async () => {
    expect(
      (await rawPost(stack, 'start-conversation', JSON.stringify({ specialist_id: SPECIALIST.lucia })))
        .status,
    ).toBe(401);
    expect(
      (await call(anonDb(stack), 'start-conversation', { specialist_id: SPECIALIST.lucia })).status,
    ).toBe(401);
  });
});

describe('conversation-read', () => {
  it('moves the read cursor forward only', async () => {
    const u = await freshUser(stack);
    const conv = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const welcome = (await messagesOf(stack, conv))[0]!;
    const sent = await sendMessage(u.client, conv, 'Ahoj, potrebujem pomôcť s newsletterom.');
    const reply = await waitFor(async () => (await repliesAfter(stack, conv, sent.id))[0], 'the AI reply');

    const toReply = await call(u.client, 'conversation-read', {
      conversationId: conv,
      last_read_message_id: reply.id,
    });
    expect(toReply.status).toBe(200);
    expect(toReply.body).toMatchObject({
      ok: true,
      cursor: { conversation_id: conv, last_read_message_id: reply.id },
    });

    const back = await call(u.client, 'conversation-read', {
      conversationId: conv,
      last_read_message_id: welcome.id,
    });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ cursor: { last_read_message_id: reply.id } });
    const [row] = await sql<{ last_read_message_id: string }>(
      stack,
      'select last_read_message_id from read_cursors where user_id = $1 and conversation_id = $2',
      [u.userId, conv],
    );
    expect(row?.last_read_message_id).toBe(reply.id);
    const counts = await u.client.rpc('get_unread_counts');
    expect(counts.data).toEqual([{ conversation_id: conv, unread_count: 0 }]);
  });

  it('answers 400 for a bad body', async () => {
    const demo = await signIn(stack, SEEDED.demo);
    expect(await call(demo, 'conversation-read', {})).toEqual({
      status: 400,
      body: { error: 'conversationId must be a UUID' },
    });
    expect(
      await call(demo, 'conversation-read', {
        conversationId: '00000000-0000-4000-b000-000000000001',
        last_read_message_id: 5,
      }),
    ).toEqual({ status: 400, body: { error: 'last_read_message_id must be a UUID' } });
  });

  it("answers 404 for another account's conversation or a message of another conversation", async () => {
    const u = await freshUser(stack);
    const conv = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const msg = (await messagesOf(stack, conv))[0]!;
    const druhy = await signIn(stack, SEEDED.druhy);
    expect(
      await call(druhy, 'conversation-read', { conversationId: conv, last_read_message_id: msg.id }),
    ).toEqual({
      status: 404,
      body: { error: 'Conversation not found' },
    });
    const other = (await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body
      .conversation_id as string;
    expect(
      await call(u.client, 'conversation-read', { conversationId: other, last_read_message_id: msg.id }),
    ).toEqual({
      status: 404,
      body: { error: 'Message not found in this conversation' },
    });
  });

  it('refuses a call without a JWT', async () => {
    expect((await rawPost(stack, 'conversation-read', '{}')).status).toBe(401);
    expect((await call(anonDb(stack), 'conversation-read', {})).status).toBe(401);
  });
});

describe('chatwoot-pubsub-token', () => {
  it("answers the member's own account; no tokens before any Chatwoot conversation", async () => {
    const demo = await signIn(stack, SEEDED.demo);
    expect(await call(demo, 'chatwoot-pubsub-token', {})).toEqual({
      status: 200,
      body: { pubsub_token: null, account_id: null, tokens: [] },
    });
  });

  it("serves the stored contact tokens of the caller's account only", async () => {
    const u = await freshUser(stack);
    const [acc] = await sql<{ account_id: string }>(
      stack,
      'select account_id from account_users where user_id = $1',
      [u.userId],
    );
    const accountId = acc!.account_id;
    const ins = await serviceDb(stack).from('chatwoot_contacts').insert({
      account_id: accountId,
      inbox_id: 7,
      contact_id: 70,
      source_id: 'src-7',
      pubsub_token: 'tok-7',
    });
    expect(ins.error).toBeNull();
    expect((await call(u.client, 'chatwoot-pubsub-token')).body).toMatchObject({
      pubsub_token: 'tok-7',
      tokens: [{ inbox_id: 7, pubsub_token: 'tok-7' }],
    });

    const druhy = await signIn(stack, SEEDED.druhy);
    expect(await call(druhy, 'chatwoot-pubsub-token', { account_id: accountId })).toEqual({
      status: 403,
      body: { error: 'Not a member of this account' },
    });
    const admin = await signIn(stack, SEEDED.admin);
    expect((await call(admin, 'chatwoot-pubsub-token', { account_id: accountId })).body).toMatchObject({
      pubsub_token: 'tok-7',
    });
  });

  it('answers 400 for a bad body, 403 for another user id, 401 without a JWT', async () => {
    const demo = await signIn(stack, SEEDED.demo);
    expect(await call(demo, 'chatwoot-pubsub-token', { account_id: 'ucet' })).toEqual({
      status: 400,
      body: { error: 'account_id must be a UUID' },
    });
    expect(
      await call(demo, 'chatwoot-pubsub-token', { user_id: '00000000-0000-4000-a000-000000000003' }),
    ).toEqual({
      status: 403,
      body: { error: 'user_id must be the caller' },
    });
    expect((await rawPost(stack, 'chatwoot-pubsub-token', '{}')).status).toBe(401);
    expect((await call(anonDb(stack), 'chatwoot-pubsub-token', {})).status).toBe(401);
  });
});

// Issue 21 admin items 6 and 7 against the Chatwoot double.
// 6: a super admin links a specialist to a Chatwoot inbox (admin-chatwoot-specialist-inbox), checked
//    on the server: the inbox must exist, be an API inbox and be nobody else's; members are refused.
//    After linking, Send works on what was a fresh install (no inbox id).
// 7: when Chatwoot's side is reset (the double's conversations and contacts wiped), a send through a
//    stale link relinks by itself instead of failing with 404 forever.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SEEDED,
  SPECIALIST,
  call,
  messagesOf,
  signIn,
  sql,
  startChatwootWorld,
  type ChatwootWorld,
  type Client,
} from './functions-helpers.ts';

let world: ChatwootWorld;
let admin: Client;
let demo: Client;

beforeAll(async () => {
  world = await startChatwootWorld();
  admin = await signIn(world.ref, SEEDED.admin);
  demo = await signIn(world.ref, SEEDED.demo);
});
afterAll(async () => {
  await world?.stop();
});

const inboxOf = async (id: string) =>
  (await sql<{ chatwoot_inbox_id: string | null }>(world.ref, 'select chatwoot_inbox_id::text from specialists where id = $1', [id]))[0]!.chatwoot_inbox_id;

describe('specialist inbox (item 6)', () => {
  it('a fresh install cannot send; after the admin links the inbox, Send works', async () => {
    await sql(world.ref, 'update specialists set chatwoot_inbox_id = null where id = $1', [SPECIALIST.jana]);
    const accountId = (await admin.rpc('current_account_id')).data as string;
    const inbox = world.inboxOf[SPECIALIST.jana]!;
    expect((await call(admin, 'admin-chatwoot-send', { account_id: accountId, inbox_id: inbox, content: 'Skúška' })).status).toBe(400);

    const r = await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.jana, inbox_id: inbox });
    expect(r).toMatchObject({ status: 200, body: { success: true, specialist: { id: SPECIALIST.jana, chatwoot_inbox_id: inbox } } });
    expect(await inboxOf(SPECIALIST.jana)).toBe(String(inbox));
    const sent = await call(admin, 'admin-chatwoot-send', { account_id: accountId, inbox_id: inbox, content: 'Skúška' });
    expect(sent).toMatchObject({ status: 200, body: { success: true, hasChatwoot: true } });
  });

  it('refuses an inbox Chatwoot does not have, one that is not an API inbox, and one another specialist uses', async () => {
    expect(await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.peter, inbox_id: 999 })).toEqual({
      status: 400,
      body: { success: false, error: 'Inbox 999 v Chatwoote neexistuje' },
    });
    const web = world.double.store.addInbox({ accountId: world.double.accountId, name: 'Web widget', channelType: 'Channel::WebWidget' });
    expect(await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.peter, inbox_id: web.id })).toEqual({
      status: 400,
      body: { success: false, error: 'Inbox Web widget nie je API inbox (Channel::WebWidget); Poradňa potrebuje inbox typu API' },
    });
    const zuzanas = world.inboxOf[SPECIALIST.zuzana]!;
    const taken = await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.peter, inbox_id: zuzanas });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/už používa špecialista/);
    expect(await inboxOf(SPECIALIST.peter)).toBeNull();
  });

  it('validates the body and unlinks with null', async () => {
    expect((await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: 'x', inbox_id: 1 })).status).toBe(400);
    expect(await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.peter, inbox_id: 'abc' })).toEqual({
      status: 400,
      body: { success: false, error: 'inbox_id must be a Chatwoot inbox id (a positive integer) or null' },
    });
    expect((await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: randomUUID(), inbox_id: null })).status).toBe(404);
    const r = await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.jana, inbox_id: null });
    expect(r).toMatchObject({ status: 200, body: { specialist: { chatwoot_inbox_id: null } } });
    await call(admin, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.jana, inbox_id: world.inboxOf[SPECIALIST.jana] });
  });

  it('a member cannot set any inbox (attack: 403, nothing changes)', async () => {
    const before = await inboxOf(SPECIALIST.zuzana);
    expect(await call(demo, 'admin-chatwoot-specialist-inbox', { specialist_id: SPECIALIST.zuzana, inbox_id: null })).toEqual({
      status: 403,
      body: { error: 'Super admin role required' },
    });
    expect(await inboxOf(SPECIALIST.zuzana)).toBe(before);
  });
});

describe('stale Chatwoot links (item 7)', () => {
  it('after Chatwoot is reset, the next send relinks and arrives instead of failing with 404', async () => {
    const started = await call(demo, 'start-conversation', { specialist_id: SPECIALIST.jana });
    expect(started.status).toBe(200);
    const conversationId = started.body.conversation_id as string;
    const first = await call(demo, 'admin-chatwoot-send', { conversation_id: conversationId, content: 'Prvá', client_correlation_id: randomUUID() });
    expect(first.status).toBe(200);
    const oldDisplay = first.body.chatwoot_conversation_id as number;

    world.double.wipeConversations();

    const again = await call(demo, 'admin-chatwoot-send', { conversation_id: conversationId, content: 'Druhá', client_correlation_id: randomUUID() });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const newDisplay = again.body.chatwoot_conversation_id as number;
    expect(newDisplay).not.toBe(oldDisplay);
    const conv = world.double.actions.conversation(world.double.accountId, newDisplay);
    expect(conv.customAttributes).toEqual({ poradna_conversation_id: conversationId });
    expect([...world.double.store.messages.values()].filter((m) => m.conversationId === conv.id).map((m) => m.content)).toContain('Druhá');
    const [row] = await sql<{ chatwoot_conversation_id: string }>(world.ref, 'select chatwoot_conversation_id::text from conversations where id = $1', [conversationId]);
    expect(row?.chatwoot_conversation_id).toBe(String(newDisplay));
    // Our messages: both, once each.
    expect((await messagesOf(world.ref, conversationId)).filter((m) => m.direction === 'user').map((m) => m.text)).toEqual(['Prvá', 'Druhá']);
    const events = await sql<{ kind: string }>(world.ref, `select kind from integration_events where kind like 'chatwoot.%'`);
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['chatwoot.relinked', 'chatwoot.contact_recreated']));
  });
});

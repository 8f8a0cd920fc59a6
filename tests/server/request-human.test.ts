// R14.7 (issue 39): 'Chcem hovoriť s človekom' opens the conversation in Chatwoot when none is linked
// yet, so the agents see it in their inbox. The real request-human function on a stack wired to the
// Chatwoot double; who may ask is the database's rule (request_human as the caller).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatwootDouble } from '../doubles/chatwoot/server.ts';
import { SPECIALIST, call, freshUser, sql, startChatwootWorld, type ChatwootWorld, type StackRef } from './functions-helpers.ts';

let world: ChatwootWorld;
let double: ChatwootDouble;
let ref: StackRef;

const chatwootConversationsFor = (conversationId: string) =>
  [...double.store.conversations.values()].filter((c) => c.customAttributes.poradna_conversation_id === conversationId);

beforeAll(async () => {
  world = await startChatwootWorld();
  ({ double, ref } = world);
  // Lucia (AI) gets an inbox of her own for handoffs; the assistant keeps none.
  await sql(ref, 'update specialists set chatwoot_inbox_id = $2 where id = $1', [SPECIALIST.lucia, double.inboxes[0]!.id]);
});
afterAll(async () => {
  await world?.stop();
});

describe('R14.7 request-human opens the conversation for Chatwoot agents', () => {
  it('R14.7 an unlinked AI conversation is waiting and opened in its specialist\'s inbox, once however often asked', async () => {
    const user = await freshUser(ref, 'handoff-open');
    const id = (await call(user.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body.conversation_id as string;
    const first = await call(user.client, 'request-human', { conversation_id: id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ chatwoot: 'linked', conversation: { owner_state: 'waiting' } });
    const [row] = await sql<{ owner_state: string; chatwoot_conversation_id: number | null }>(ref, 'select owner_state, chatwoot_conversation_id from conversations where id = $1', [id]);
    expect(row?.owner_state).toBe('waiting');
    const opened = chatwootConversationsFor(id);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ inboxId: double.inboxes[0]!.id, displayId: Number(row?.chatwoot_conversation_id), status: 'open' });

    const again = await call(user.client, 'request-human', { conversation_id: id });
    expect(again.body).toMatchObject({ chatwoot: 'linked' });
    expect(chatwootConversationsFor(id)).toHaveLength(1);
  });

  it('R14.7 a specialist without a Chatwoot inbox: the request stands, the admin\'s diagnostics record why agents do not see it', async () => {
    const user = await freshUser(ref, 'handoff-noinbox');
    const id = (await call(user.client, 'start-conversation', { specialist_id: SPECIALIST.assistant })).body.conversation_id as string;
    const res = await call(user.client, 'request-human', { conversation_id: id });
    expect(res.body).toMatchObject({ chatwoot: 'no_inbox', conversation: { owner_state: 'waiting' } });
    const events = await sql<{ kind: string }>(ref, "select kind from integration_events where data->>'conversation_id' = $1", [id]);
    expect(events.map((e) => e.kind)).toEqual(['chatwoot.handoff_not_opened']);
  });

  it('R14.7 attack: another account\'s member asking for a human gets 404 and nothing is opened in Chatwoot', async () => {
    const owner = await freshUser(ref, 'handoff-victim');
    const intruder = await freshUser(ref, 'handoff-intruder');
    const id = (await call(owner.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body.conversation_id as string;
    const res = await call(intruder.client, 'request-human', { conversation_id: id });
    expect(res.status).toBe(404);
    expect(chatwootConversationsFor(id)).toHaveLength(0);
    const [row] = await sql<{ owner_state: string }>(ref, 'select owner_state from conversations where id = $1', [id]);
    expect(row?.owner_state).toBe('ai');
    const bad = await call(intruder.client, 'request-human', { conversation_id: 'x' });
    expect(bad.status).toBe(400);
  });
});

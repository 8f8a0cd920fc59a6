// R14.5 Chatwoot moves the conversation's owner (issue 39): real webhooks from the Chatwoot double
// into the real chatwoot-webhook function on a stack of its own, owner state read from PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatwootDouble } from '../doubles/chatwoot/server.ts';
import {
  SPECIALIST,
  call,
  freshUser,
  sql,
  startChatwootWorld,
  type ChatwootWorld,
  type StackRef,
} from './functions-helpers.ts';

let world: ChatwootWorld;
let double: ChatwootDouble;
let ref: StackRef;

interface Owner {
  owner_state: string;
  owner_agent_name: string | null;
  owner_requested_at: Date | null;
  status: string;
}

async function ownerOf(conversationId: string): Promise<Owner> {
  const [row] = await sql<Owner>(
    ref,
    'select owner_state, owner_agent_name, owner_requested_at, status from conversations where id = $1',
    [conversationId],
  );
  return row!;
}

/** An AI conversation of a fresh user, linked by hand to a new conversation of the double. */
async function linkedAiConversation(name: string): Promise<{ id: string; displayId: number; user: Awaited<ReturnType<typeof freshUser>> }> {
  const user = await freshUser(ref, name);
  const id = (await call(user.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body.conversation_id as string;
  const { contactInbox } = double.createContact(double.inboxes[0]!.id, { name });
  const displayId = double.openConversation(contactInbox.id).displayId;
  await sql(ref, 'update conversations set chatwoot_conversation_id = $2 where id = $1', [id, displayId]);
  return { id, displayId, user };
}

beforeAll(async () => {
  world = await startChatwootWorld();
  ({ double, ref } = world);
});
afterAll(async () => {
  await world?.stop();
});

describe('R14.5 Chatwoot and the owner state', () => {
  it('R14.5a an agent reply makes the agent the owner, before the reply is stored; the AI is refused after it', async () => {
    const c = await linkedAiConversation('handoff-reply');
    expect((await ownerOf(c.id)).owner_state).toBe('ai');
    const agent = double.agents[1]!;
    double.agentReply(c.displayId, 'Dobrý deň, tu je človek.', { agentId: agent.id });
    await double.webhooksIdle();
    expect(await ownerOf(c.id)).toMatchObject({ owner_state: 'human', owner_agent_name: agent.name });
    const ai = await c.user.client.from('conversations').select('owner_state, owner_agent_name').eq('id', c.id).single();
    expect(ai.data).toEqual({ owner_state: 'human', owner_agent_name: agent.name });
    await expect(
      sql(ref, `insert into messages (conversation_id, direction, source, text) values ($1, 'specialist', 'ai', 'AI')`, [c.id]),
    ).rejects.toMatchObject({ code: 'PT409', message: 'conversation_owned_by_human' });
  });

  it('R14.5a a private note or a contact message is not a takeover', async () => {
    const c = await linkedAiConversation('handoff-note');
    double.agentReply(c.displayId, 'Interná poznámka', { private: true });
    double.contactMessage(c.displayId, 'Ahoj');
    await double.webhooksIdle();
    expect((await ownerOf(c.id)).owner_state).toBe('ai');
  });

  it('R14.5b an assignment hands the conversation to the assignee; an unassignment changes nothing', async () => {
    const c = await linkedAiConversation('handoff-assign');
    const r = await c.user.client.rpc('request_human', { p_conversation_id: c.id });
    expect(r.error).toBeNull();
    expect((await ownerOf(c.id)).owner_state).toBe('waiting');
    const agent = double.agents[2]!;
    double.assign(c.displayId, agent.id);
    await double.webhooksIdle();
    const owner = await ownerOf(c.id);
    expect(owner).toMatchObject({ owner_state: 'human', owner_agent_name: agent.name });
    expect(owner.owner_requested_at).not.toBeNull(); // the request time stays on record
    double.assign(c.displayId, null);
    await double.webhooksIdle();
    expect(await ownerOf(c.id)).toMatchObject({ owner_state: 'human', owner_agent_name: agent.name });
  });

  it('R14.5c resolved hands back to the AI; R14.5d reopened goes to the assignee, or waits', async () => {
    const c = await linkedAiConversation('handoff-resolve');
    const agent = double.agents[1]!;
    double.agentReply(c.displayId, 'Vyriešené?', { agentId: agent.id });
    await double.webhooksIdle();
    expect((await ownerOf(c.id)).owner_state).toBe('human');

    double.resolve(c.displayId);
    await double.webhooksIdle();
    expect(await ownerOf(c.id)).toMatchObject({ owner_state: 'ai', owner_agent_name: null, status: 'completed' });

    double.setStatus(c.displayId, 'open');
    await double.webhooksIdle();
    const reopened = await ownerOf(c.id);
    expect(reopened).toMatchObject({ owner_state: 'waiting', status: 'active' });
    expect(reopened.owner_requested_at).not.toBeNull();

    // One webhook at a time: Chatwoot sends each event when it happens, and three sent at once may be
    // handled in any order (the clean-clone run once saw the resolve applied after the reopen).
    double.assign(c.displayId, agent.id);
    await double.webhooksIdle();
    double.resolve(c.displayId);
    await double.webhooksIdle();
    double.setStatus(c.displayId, 'open');
    await double.webhooksIdle();
    expect(await ownerOf(c.id)).toMatchObject({ owner_state: 'human', owner_agent_name: agent.name, status: 'active' });
  });
});

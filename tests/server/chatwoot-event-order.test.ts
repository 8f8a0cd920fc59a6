// R14.9 Chatwoot's events by their own time (issue 39): Chatwoot's webhook deliveries are unordered,
// so an event that arrives after a newer one must not undo it. The double makes the events (real
// payloads, each with the conversation's updated_at) and delivers them in order to the real
// chatwoot-webhook function; then an older event's recorded delivery is posted again, signed as
// Chatwoot signs, as the late delivery it stands for. State read from PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../doubles/chatwoot/webhooks.ts';
import type { ChatwootDouble } from '../doubles/chatwoot/server.ts';
import { SPECIALIST, call, freshUser, rawPost, sql, startChatwootWorld, type ChatwootWorld, type StackRef } from './functions-helpers.ts';

let world: ChatwootWorld;
let double: ChatwootDouble;
let ref: StackRef;

interface State {
  owner_state: string;
  owner_agent_name: string | null;
  status: string;
}

const stateOf = async (id: string): Promise<State> =>
  (await sql<State>(ref, 'select owner_state, owner_agent_name, status from conversations where id = $1', [id]))[0]!;

/** An AI conversation of a fresh user, linked by hand to a new conversation of the double. */
async function linked(name: string): Promise<{ id: string; displayId: number }> {
  const user = await freshUser(ref, name);
  const id = (await call(user.client, 'start-conversation', { specialist_id: SPECIALIST.lucia })).body.conversation_id as string;
  const { contactInbox } = double.createContact(double.inboxes[0]!.id, { name });
  const displayId = double.openConversation(contactInbox.id).displayId;
  await sql(ref, 'update conversations set chatwoot_conversation_id = $2 where id = $1', [id, displayId]);
  return { id, displayId };
}

/** The body of the last delivery of `event` so far (after every delivery in flight finished). */
async function delivered(event: string): Promise<string> {
  await double.webhooksIdle();
  const d = double.webhookDeliveries.filter((x) => x.event === event).at(-1);
  if (!d) throw new Error(`no ${event} delivery`);
  return d.body;
}

/** Posts a recorded body again as a late delivery, signed as Chatwoot signs. */
async function lateDelivery(body: string): Promise<{ status: number; body: unknown }> {
  const ts = String(Math.floor(Date.now() / 1000));
  const r = await rawPost(ref, 'chatwoot-webhook', body, {
    query: `?secret=${encodeURIComponent(world.secret)}`,
    headers: { 'x-chatwoot-timestamp': ts, 'x-chatwoot-delivery': crypto.randomUUID(), 'x-chatwoot-signature': signWebhook(world.secret, ts, body) },
  });
  return { status: r.status, body: r.body };
}

beforeAll(async () => {
  world = await startChatwootWorld();
  ({ double, ref } = world);
});
afterAll(async () => {
  await world?.stop();
});

describe('R14.9 Chatwoot events applied by their own time', () => {
  it('R14.9 an agent reply delivered after the resolve that followed it leaves the conversation with the AI; the reply is stored once', async () => {
    const c = await linked('order-reply');
    const agent = double.agents[1]!;
    const reply = double.agentReply(c.displayId, 'Odpoveď pred vyriešením.', { agentId: agent.id });
    const replyBody = await delivered('message_created');
    double.resolve(c.displayId);
    await double.webhooksIdle();
    expect(await stateOf(c.id)).toEqual({ owner_state: 'ai', owner_agent_name: null, status: 'completed' });

    const late = await lateDelivery(replyBody);
    expect(late.status).toBe(200);
    expect(await stateOf(c.id)).toEqual({ owner_state: 'ai', owner_agent_name: null, status: 'completed' });
    const copies = await sql(ref, 'select 1 from messages where chatwoot_message_id = $1', [reply.id]);
    expect(copies).toHaveLength(1);
  });

  it('R14.9 a resolve delivered after the reopen that followed it does not hand the conversation back to the AI', async () => {
    const c = await linked('order-reopen');
    const agent = double.agents[2]!;
    double.agentReply(c.displayId, 'Preberám.', { agentId: agent.id });
    await double.webhooksIdle();
    double.resolve(c.displayId);
    const resolveBody = await delivered('conversation_status_changed');
    double.setStatus(c.displayId, 'open');
    await double.webhooksIdle();
    const reopened = await stateOf(c.id);
    expect(reopened).toMatchObject({ owner_state: 'waiting', status: 'active' });

    const late = await lateDelivery(resolveBody);
    expect(await stateOf(c.id)).toEqual(reopened);
    expect(late).toEqual({ status: 200, body: { ok: true, outcome: 'stale' } });
  });

  it('R14.9 an assignment delivered after the resolve that followed it does not take the conversation from the AI', async () => {
    const c = await linked('order-assign');
    const agent = double.agents[1]!;
    double.assign(c.displayId, agent.id);
    const assignBody = await delivered('conversation_updated');
    expect(await stateOf(c.id)).toMatchObject({ owner_state: 'human', owner_agent_name: agent.name });
    double.resolve(c.displayId);
    await double.webhooksIdle();
    expect(await stateOf(c.id)).toEqual({ owner_state: 'ai', owner_agent_name: null, status: 'completed' });

    const late = await lateDelivery(assignBody);
    expect(await stateOf(c.id)).toEqual({ owner_state: 'ai', owner_agent_name: null, status: 'completed' });
    expect(late.body).toEqual({ ok: true, outcome: 'stale' });
  });

  it('R14.9 an older message_updated delivered after a newer one keeps the newer text', async () => {
    const c = await linked('order-edit');
    const reply = double.agentReply(c.displayId, 'Prvé znenie');
    await double.webhooksIdle();
    const message = double.store.messages.get(reply.id as number)!;
    double.actions.updateMessage(message, { content: 'Druhé znenie' });
    const olderBody = await delivered('message_updated');
    double.actions.updateMessage(message, { content: 'Tretie znenie' });
    await double.webhooksIdle();
    const textOf = async () => (await sql<{ text: string }>(ref, 'select text from messages where chatwoot_message_id = $1', [reply.id]))[0]!.text;
    expect(await textOf()).toBe('Tretie znenie');

    const late = await lateDelivery(olderBody);
    expect(await textOf()).toBe('Tretie znenie');
    expect(late.body).toEqual({ ok: true, outcome: 'stale' });
  });
});

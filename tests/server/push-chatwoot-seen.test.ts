// "Read by the specialist" for a Chatwoot-carried conversation (issue 20, sync/SPEC.md R10.11), end to
// end against the Chatwoot double: the member writes through admin-chatwoot-send (as the app does), an
// agent opens the conversation in the dashboard (POST .../update_last_seen, what Chatwoot's dashboard
// calls), and the member's message becomes read (✓✓) through the real webhook → database → change
// feed (sync_pull).
//
// What real Chatwoot does on a mere view (chatwoot/chatwoot app/controllers/api/v1/accounts/
// conversations_controller.rb#update_last_seen): `update_columns(agent_last_seen_at: …)`, which runs
// no callbacks, so no webhook and nothing on the contact's socket. The view reaches us with the
// conversation's NEXT event, whose payload carries agent_last_seen_at (Conversations::
// EventDataPresenter#push_timestamps): the member's next message, the agent's typing, assignment,
// labels, status, or the agent's reply. These tests hold the double to that and our side to using it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SPECIALIST,
  call,
  freshUser,
  sql,
  startChatwootWorld,
  waitFor,
  type ChatwootWorld,
  type FreshUser,
} from './functions-helpers.ts';

let world: ChatwootWorld;

beforeAll(async () => {
  world = await startChatwootWorld();
  // Chatwoot lets an account webhook subscribe conversation_typing_on (app/models/webhook.rb
  // ALLOWED_WEBHOOK_EVENTS); the README recommends it for quicker read marks.
  world.double.addWebhook(
    `${world.stack.url}/functions/v1/chatwoot-webhook?secret=${world.secret}`,
    ['conversation_typing_on'],
    world.secret,
  );
});

afterAll(async () => {
  await world?.stop();
});

interface Chat {
  user: FreshUser;
  conversationId: string;
  displayId: number;
}

async function send(chat: Pick<Chat, 'user' | 'conversationId'>, content: string): Promise<{ id: string; displayId: number }> {
  const r = await call(chat.user.client, 'admin-chatwoot-send', {
    conversation_id: chat.conversationId,
    content,
    client_correlation_id: crypto.randomUUID(),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const data = r.body.messageData as { id: string };
  return { id: data.id, displayId: r.body.chatwoot_conversation_id as number };
}

async function chatWithMessage(text: string): Promise<Chat & { first: string }> {
  const user = await freshUser(world.ref, 'videne');
  // A chat with Zuzana (a human specialist carried by Chatwoot), seeded as the admin would; plan FREE
  // does not include her, and the plan rules are not what this test is about.
  const [conv] = await sql<{ id: string }>(
    world.ref,
    `insert into public.conversations (account_id, specialist_id)
       select account_id, $2 from public.account_users where user_id = $1 returning id`,
    [user.userId, SPECIALIST.zuzana],
  );
  const conversationId = conv!.id;
  const sent = await send({ user, conversationId }, text);
  await world.double.webhooksIdle();
  return { user, conversationId, displayId: sent.displayId, first: sent.id };
}

const readAt = async (id: string) =>
  (await sql<{ read_at: Date | null }>(world.ref, 'select read_at from public.messages where id = $1', [id]))[0]!.read_at;

/** The member's change feed from `since`: their messages' read_at as the device receives them. */
async function feed(chat: Chat, since: number): Promise<{ cursor: number; readAt: Map<string, string | null> }> {
  const r = await chat.user.client.rpc('sync_pull', { p_since: since, p_limit: 500 });
  if (r.error) throw new Error(r.error.message);
  const page = r.data as { cursor: number; messages: { id: string; read_at: string | null }[] };
  return { cursor: page.cursor, readAt: new Map(page.messages.map((m) => [m.id, m.read_at])) };
}

/** What Chatwoot's dashboard sends when an agent opens the conversation. */
async function agentOpens(displayId: number): Promise<void> {
  const res = await fetch(`${world.double.url}/api/v1/accounts/${world.double.accountId}/conversations/${displayId}/update_last_seen`, {
    method: 'POST',
    headers: { api_access_token: world.double.apiToken },
  });
  expect(res.status).toBe(200);
}

/** Chatwoot's timestamps have one-second resolution: let the view fall in a later second than a
 *  message it should not cover, and the reverse. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1100 - (Date.now() % 1000)));

describe('R10.11 Chatwoot agent last seen, end to end', () => {
  it('a mere view sends nothing (as in Chatwoot); the next event carries it and the message becomes read through the feed', async () => {
    const chat = await chatWithMessage('Dobrý deň, pozriete si môj text?');
    expect(await readAt(chat.first)).toBeNull();
    const before = await feed(chat, 0);
    expect(before.readAt.get(chat.first)).toBeNull();

    await nextSecond();
    const hooksBefore = world.double.webhookDeliveries.length;
    await agentOpens(chat.displayId);
    await world.double.webhooksIdle();
    // Chatwoot's update_columns: the conversation JSON shows the view, no webhook went out.
    expect(world.double.webhookDeliveries.length).toBe(hooksBefore);
    const shown = (await (
      await fetch(`${world.double.url}/api/v1/accounts/${world.double.accountId}/conversations/${chat.displayId}`, {
        headers: { api_access_token: world.double.apiToken },
      })
    ).json()) as { agent_last_seen_at: number };
    expect(shown.agent_last_seen_at).toBeGreaterThan(0);
    expect(await readAt(chat.first)).toBeNull();

    // The member writes again: Chatwoot's message_created carries the conversation's
    // agent_last_seen_at; the first message (before the view) is read, the new one is not.
    await nextSecond();
    const second = await send(chat, 'A ešte jedna otázka.');
    await world.double.webhooksIdle();
    const seenAt = await waitFor(() => readAt(chat.first), 'the first message to be read by the agent');
    expect(seenAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await readAt(second.id)).toBeNull();

    // The device learns it from the change feed like any other column (R10.8).
    const after = await feed(chat, before.cursor);
    expect(after.readAt.get(chat.first)).not.toBeNull();
    expect(after.readAt.has(second.id) ? after.readAt.get(second.id) : null).toBeNull();
  });

  it('the agent typing after opening carries the view too (conversation_typing_on), and read_at never moves back', async () => {
    const chat = await chatWithMessage('Potrebujem poradiť s CV.');
    await nextSecond();
    await agentOpens(chat.displayId);
    world.double.setTyping(chat.displayId, true);
    await world.double.webhooksIdle();
    const seenAt = await waitFor(() => readAt(chat.first), 'the message to be read after the agent typed');

    // A later event with an older agent_last_seen_at (a delayed delivery) cannot move it.
    const conv = world.double.actions.conversation(world.double.accountId, chat.displayId);
    conv.agentLastSeenAtMs = Date.now() - 3_600_000;
    world.double.setTyping(chat.displayId, false);
    world.double.assign(chat.displayId, world.double.admin.id);
    await world.double.webhooksIdle();
    expect(await readAt(chat.first)).toEqual(seenAt);
  });

  it("Chatwoot's one-second resolution: a view in the same second as the message covers it, as Chatwoot's own unread count does", async () => {
    const chat = await chatWithMessage('Otázka v tej istej sekunde.');
    const [row] = await sql<{ created_at: Date }>(world.ref, 'select created_at from public.messages where id = $1', [chat.first]);
    // The agent's view stamped at the start of the message's second (agent_last_seen_at is .to_i).
    const conv = world.double.actions.conversation(world.double.accountId, chat.displayId);
    conv.agentLastSeenAtMs = Math.floor(row!.created_at.getTime() / 1000) * 1000;
    world.double.setTyping(chat.displayId, true);
    await world.double.webhooksIdle();
    await waitFor(() => readAt(chat.first), 'the message of the same second to count as seen');
  });

  it('Chatwoot throttles a repeated view without unread messages, as it does (once an hour)', async () => {
    const chat = await chatWithMessage('Krátka otázka.');
    await agentOpens(chat.displayId);
    const conv = world.double.actions.conversation(world.double.accountId, chat.displayId);
    const first = conv.agentLastSeenAtMs;
    expect(first).not.toBeNull();
    await nextSecond();
    await agentOpens(chat.displayId);
    expect(conv.agentLastSeenAtMs).toBe(first);
  });
});

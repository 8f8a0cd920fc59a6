// The Chatwoot double against the REAL @rails/actioncable client, raw sockets and a local webhook
// receiver: realtime authorisation and filtering, REST replies and errors, webhook shapes and HMAC.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadActionCable, RoomListener, type CableConsumer } from '../doubles/chatwoot/cable-client.ts';
import { startChatwootDouble, type ChatwootDouble } from '../doubles/chatwoot/server.ts';

type Json = Record<string, unknown>;
/** Walks into parsed JSON without casts at every step: dig(x, 'a', 'b') is x.a.b or undefined. */
const dig = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Json)[k] : undefined), v);
interface Hook { headers: IncomingHttpHeaders; raw: string; json: Json }

const SECRET = 'webhook-secret-0123456789abcdef0123456789';
let cw: ChatwootDouble;
let hookServer: Server;
const hooks: Hook[] = [];
const inboxHooks: Hook[] = [];
const consumers: CableConsumer[] = [];
let contact: { source_id: string; pubsub_token: string; id: number };
let displayId: number;
let contactRoom: RoomListener;
let agentRoom: RoomListener;

async function api(method: string, path: string, body?: unknown, token: string | null = cw.apiToken): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers.api_access_token = token;
  const res = await fetch(`${cw.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as Json };
}
const acct = (p: string) => `/api/v1/accounts/${cw.accountId}${p}`;

async function consumer(): Promise<CableConsumer> {
  const c = (await loadActionCable()).createConsumer(cw.cableUrl);
  consumers.push(c);
  return c;
}

async function waitFor<T>(get: () => T | undefined, what: string, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw socket recording every frame, for wire-level assertions the client library hides. */
function rawSocket(protocols: string[] = ['actioncable-v1-json']): Promise<{ ws: WebSocket; frames: Json[] }> {
  return new Promise((resolveOpen, reject) => {
    const ws = new WebSocket(cw.cableUrl, protocols);
    const frames: Json[] = [];
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as Json));
    ws.once('open', () => resolveOpen({ ws, frames }));
    ws.once('error', reject);
  });
}

beforeAll(async () => {
  cw = await startChatwootDouble({ pingIntervalMs: 200 });
  hookServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      (req.url === '/inbox' ? inboxHooks : hooks).push({ headers: req.headers, raw, json: JSON.parse(raw) as Json });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  const addr = hookServer.address();
  const hookUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  cw.addWebhook(`${hookUrl}/account`, ['message_created', 'message_updated', 'conversation_created', 'conversation_status_changed', 'conversation_updated'], SECRET);
  const inbox = cw.inboxes[0]!;
  cw.setInboxWebhook(inbox.id, `${hookUrl}/inbox`);

  const created = await api('POST', `/public/api/v1/inboxes/${inbox.inboxIdentifier}/contacts`, { name: 'Anna', email: 'anna@example.test' }, null);
  contact = created.json as typeof contact;
  const conv = await api('POST', `/public/api/v1/inboxes/${inbox.inboxIdentifier}/contacts/${contact.source_id}/conversations`, {}, null);
  displayId = conv.json.id as number;

  contactRoom = new RoomListener(await consumer(), { pubsub_token: contact.pubsub_token });
  agentRoom = new RoomListener(await consumer(), { pubsub_token: cw.admin.pubsubToken, account_id: cw.accountId, user_id: cw.admin.id });
  await Promise.all([contactRoom.connected(), agentRoom.connected()]);
});

afterAll(async () => {
  for (const c of consumers) c.disconnect();
  await cw.stop();
  await new Promise((r) => hookServer.close(r));
});

describe('Chatwoot double: RoomChannel with @rails/actioncable', () => {
  it('confirms a contact token and an agent token, and says presence to each', async () => {
    expect(contactRoom.connectedCount).toBeGreaterThan(0);
    expect(agentRoom.connectedCount).toBeGreaterThan(0);
    const presence = await agentRoom.frame((f) => f.event === 'presence.update', 'agent presence');
    expect(presence.data.users).toHaveProperty(String(cw.admin.id));
    expect(presence.data).toHaveProperty('contacts');
    const cp = await contactRoom.frame((f) => f.event === 'presence.update', 'contact presence');
    expect(cp.data).not.toHaveProperty('contacts');
  });

  it('never confirms (nor rejects) a bad token, an agent outside the account, or an agent token without user_id', async () => {
    const c = await consumer();
    const bad = [
      new RoomListener(c, { pubsub_token: 'not-a-token' }),
      new RoomListener(c, { pubsub_token: cw.admin.pubsubToken, account_id: 999, user_id: cw.admin.id }),
      new RoomListener(c, { pubsub_token: cw.admin.pubsubToken }),
      new RoomListener(c, { pubsub_token: cw.admin.pubsubToken, account_id: cw.accountId, user_id: cw.agents[1]!.id }),
    ];
    await new Promise((r) => setTimeout(r, 1300)); // the client re-sends subscribe twice in this time
    for (const l of bad) expect([l.connectedCount, l.rejected]).toEqual([0, false]);

    const { ws, frames } = await rawSocket();
    ws.send(JSON.stringify({ command: 'subscribe', identifier: JSON.stringify({ channel: 'RoomChannel', pubsub_token: 'nope' }) }));
    await new Promise((r) => setTimeout(r, 500));
    expect(frames[0]).toEqual({ type: 'welcome' });
    expect(frames.filter((f) => f.type !== 'ping' && f.type !== 'welcome')).toEqual([]);
    ws.close();
  });

  it('echoes the identifier byte for byte, re-confirms duplicates without doubling delivery, and pings', async () => {
    const { ws, frames } = await rawSocket();
    const identifier = `{ "channel":"RoomChannel",  "pubsub_token":"${contact.pubsub_token}" }`;
    ws.send(JSON.stringify({ command: 'subscribe', identifier }));
    ws.send(JSON.stringify({ command: 'subscribe', identifier }));
    await waitFor(() => (frames.filter((f) => f.type === 'confirm_subscription').length === 2 ? true : undefined), 'two confirms');
    expect(frames.find((f) => f.type === 'confirm_subscription')).toEqual({ identifier, type: 'confirm_subscription' });
    const reply = cw.agentReply(displayId, 'raw check');
    const got = await waitFor(() => frames.filter((f) => dig(f, 'message', 'data', 'id') === reply.id).length || undefined, 'broadcast');
    await new Promise((r) => setTimeout(r, 100));
    expect(frames.filter((f) => dig(f, 'message', 'data', 'id') === reply.id)).toHaveLength(got);
    expect(got).toBe(1);
    const ping = await waitFor(() => frames.find((f) => f.type === 'ping'), 'ping');
    expect(Math.abs(Number(ping.message) - Date.now() / 1000)).toBeLessThan(5);
    ws.close();
    await expect(rawSocket(['some-other-protocol'])).rejects.toThrow(/400/);
  });

  it('broadcasts a REST send with its echo_id to contact and agent, possibly before the REST reply', async () => {
    const echo = 'echo-1';
    const sent = api('POST', acct(`/conversations/${displayId}/messages`), { content: 'Dobrý deň', message_type: 'incoming', echo_id: echo, source_id: 'corr-1' });
    const onContact = await contactRoom.frame((f) => f.event === 'message.created' && f.data.echo_id === echo, 'contact echo');
    const reply = await sent;
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ echo_id: echo, source_id: 'corr-1', message_type: 0, conversation_id: displayId, content: 'Dobrý deň' });
    expect(onContact.data).toMatchObject({ id: reply.json.id, source_id: 'corr-1', message_type: 0, conversation_id: displayId, private: false, account_id: cw.accountId });
    expect(onContact.data.sender).toMatchObject({ type: 'contact', id: contact.id });
    const onAgent = await agentRoom.frame((f) => f.event === 'message.created' && f.data.id === reply.json.id, 'agent echo');
    expect(onAgent.data.echo_id).toBe(echo);
    const listed = await api('GET', acct(`/conversations/${displayId}/messages`));
    const stored = (listed.json.payload as Json[]).find((m) => m.id === reply.json.id);
    expect(stored).toMatchObject({ source_id: 'corr-1' });
    expect(stored).not.toHaveProperty('echo_id');
  });

  it('delivers an agent reply to the contact; a private note only to the agent', async () => {
    const note = await api('POST', acct(`/conversations/${displayId}/messages`), { content: 'interná poznámka', private: true });
    const answer = cw.agentReply(displayId, 'Rád pomôžem', { agentId: cw.agents[1]!.id });
    const heard = await contactRoom.frame((f) => f.event === 'message.created' && f.data.id === answer.id, 'reply');
    expect(heard.data).toMatchObject({ message_type: 1, content: 'Rád pomôžem', sender: { type: 'user', id: cw.agents[1]!.id } });
    await agentRoom.frame((f) => f.event === 'message.created' && f.data.id === note.json.id && f.data.private === true, 'note to agent');
    // Frames arrive in emit order, so once the later reply is here the note would have been too.
    expect(contactRoom.frames.some((f) => f.data.id === note.json.id)).toBe(false);
  });

  it('broadcasts status changes (activity lines to agents only) and typing', async () => {
    const res = await api('POST', acct(`/conversations/${displayId}/toggle_status`), { status: 'resolved' });
    expect(res.json).toEqual({ meta: {}, payload: { success: true, conversation_id: displayId, current_status: 'resolved', snoozed_until: null } });
    for (const room of [contactRoom, agentRoom]) {
      const f = await room.frame((x) => x.event === 'conversation.status_changed' && x.data.status === 'resolved', 'status');
      expect(f.data.id).toBe(displayId);
    }
    const activity = await agentRoom.frame((f) => f.event === 'message.created' && f.data.message_type === 2, 'activity');
    cw.setTyping(displayId, true, { agentId: cw.agents[1]!.id });
    const typing = await contactRoom.frame((f) => f.event === 'conversation.typing_on', 'typing_on');
    expect(typing.data).toMatchObject({ user: { id: cw.agents[1]!.id, type: 'user' }, is_private: false, conversation: { id: displayId } });
    await agentRoom.frame((f) => f.event === 'conversation.typing_on', 'agent typing_on');
    expect(contactRoom.frames.some((f) => f.data.id === activity.data.id)).toBe(false);

    expect((await api('POST', acct(`/conversations/${displayId}/toggle_typing_status`), { typing_status: 'off' })).status).toBe(200);
    await contactRoom.frame((f) => f.event === 'conversation.typing_off' && dig(f.data, 'user', 'id') === cw.admin.id, 'typing_off');
    await new Promise((r) => setTimeout(r, 50));
    expect(agentRoom.events('conversation.typing_off').some((f) => dig(f.data, 'user', 'id') === cw.admin.id)).toBe(false); // the typer
    await api('POST', acct(`/conversations/${displayId}/toggle_status`), { status: 'open' });
    await contactRoom.frame((f) => f.event === 'conversation.status_changed' && f.data.status === 'open', 'reopen');
  });
});

describe('Chatwoot double: REST', () => {
  it('refuses a missing or wrong api_access_token with 401 {error}', async () => {
    for (const token of [null, 'wrong']) {
      const res = await api('GET', acct('/inboxes'), undefined, token);
      expect(res.status).toBe(401);
      expect(typeof res.json.error).toBe('string');
    }
    const ok = await api('GET', acct('/inboxes'));
    expect(ok.json.payload).toHaveLength(3);
    expect(dig(ok.json, 'payload', '0')).toMatchObject({ channel_type: 'Channel::Api', inbox_identifier: cw.inboxes[0]!.inboxIdentifier });
  });

  it('answers 404 for an unknown conversation and 422 for incoming outside API inboxes or a flood', async () => {
    expect((await api('GET', acct('/conversations/9999'))).status).toBe(404);
    const missing = await api('POST', acct('/conversations/9999/messages'), { content: 'x' });
    expect([missing.status, typeof missing.json.error]).toEqual([404, 'string']);

    const widget = cw.store.addInbox({ accountId: cw.accountId, name: 'Web', channelType: 'Channel::WebWidget' });
    const { contactInbox } = cw.createContact(widget.id);
    const conv = cw.openConversation(contactInbox.id);
    const incoming = await api('POST', acct(`/conversations/${conv.displayId}/messages`), { content: 'x', message_type: 'incoming' });
    expect(incoming.status).toBe(422);
    expect(incoming.json.error).toMatch(/Api inboxes/);
    expect((await api('POST', acct(`/conversations/${conv.displayId}/messages`), { content: 'ok' })).status).toBe(200);

    const now = Date.now();
    for (let i = 0; i < 200; i++) {
      cw.store.addMessage({ accountId: conv.accountId, inboxId: conv.inboxId, conversationId: conv.id, content: 'f', messageType: 1, contentType: 'text', contentAttributes: {}, private: false, sourceId: null, status: 'sent', sender: null, attachments: [], createdAtMs: now, updatedAtMs: now });
    }
    const flood = await api('POST', acct(`/conversations/${conv.displayId}/messages`), { content: 'one too many' });
    expect([flood.status, flood.json.error]).toEqual([422, 'Validation failed: Too many messages']);
  });

  it('lets the contact read and write through the client API without private notes or activity', async () => {
    const path = `/public/api/v1/inboxes/${cw.inboxes[0]!.inboxIdentifier}/contacts/${contact.source_id}/conversations/${displayId}/messages`;
    const posted = await api('POST', path, { content: 'Ďakujem', echo_id: 'pub-1' }, null);
    expect(posted.json).toMatchObject({ content: 'Ďakujem', echo_id: 'pub-1', message_type: 0, conversation_id: displayId });
    const listed = (await api('GET', path, undefined, null)).json as unknown as Json[];
    expect(listed.some((m) => m.id === posted.json.id)).toBe(true);
    expect(listed.some((m) => m.content === 'interná poznámka' || m.message_type === 2)).toBe(false);
    expect((await api('GET', path.replace(contact.source_id, 'unknown-source'), undefined, null)).status).toBe(404);
  });

  it('lists, assigns and replaces custom attributes as Chatwoot replies', async () => {
    const list = await api('GET', acct('/conversations?status=all'));
    expect(Object.keys(dig(list.json, 'data', 'meta') as Json).sort()).toEqual(['all_count', 'assigned_count', 'mine_count', 'unassigned_count']);
    expect((dig(list.json, 'data', 'payload') as Json[]).some((c) => c.id === displayId)).toBe(true);
    const agent = cw.agents[1]!;
    const assigned = await api('POST', acct(`/conversations/${displayId}/assignments`), { assignee_id: agent.id });
    expect(assigned.json).toMatchObject({ id: agent.id, email: agent.email, role: 'agent' });
    await agentRoom.frame((f) => f.event === 'assignee.changed' && dig(f.data, 'meta', 'assignee', 'id') === agent.id, 'assignee.changed');
    expect((await api('POST', acct(`/conversations/${displayId}/assignments`), { assignee_id: null })).json).toBeNull();
    await api('POST', acct(`/conversations/${displayId}/custom_attributes`), { custom_attributes: { a: 1, b: 2 } });
    const replaced = await api('POST', acct(`/conversations/${displayId}/custom_attributes`), { custom_attributes: { c: 3 } });
    expect(replaced.json).toEqual({ custom_attributes: { c: 3 } });
    expect((await api('GET', acct(`/conversations/${displayId}`))).json).toMatchObject({ id: displayId, custom_attributes: { c: 3 }, meta: { sender: { id: contact.id } } });
  });
});

describe('Chatwoot double: webhooks', () => {
  it('posts the reference shapes, signs account webhooks with the secret, and feeds the inbox URL unsigned', async () => {
    await cw.webhooksIdle();
    const created = hooks.find((h) => h.json.event === 'message_created' && h.json.source_id === 'corr-1');
    expect(created?.json).toMatchObject({ message_type: 'incoming', private: false, content: 'Dobrý deň', inbox: { id: cw.inboxes[0]!.id, name: cw.inboxes[0]!.name }, account: { id: cw.accountId, name: 'Poradňa' }, conversation: { id: displayId, inbox_id: cw.inboxes[0]!.id, status: 'open' } });
    expect(created!.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(dig(created!.json, 'conversation', 'meta')).toHaveProperty('sender');
    expect(hooks.some((h) => h.json.event === 'message_created' && h.json.private === true && h.json.content === 'interná poznámka')).toBe(true);
    expect(hooks.some((h) => h.json.event === 'message_created' && h.json.message_type === 'activity')).toBe(false);
    expect(hooks.some((h) => h.json.event === 'conversation_created' && h.json.id === displayId)).toBe(true);
    const status = hooks.find((h) => h.json.event === 'conversation_status_changed' && h.json.status === 'resolved');
    expect(status?.json.changed_attributes).toEqual([{ status: { previous_value: 'open', current_value: 'resolved' } }]);
    const updated = hooks.find((h) => h.json.event === 'conversation_updated' && dig(h.json, 'custom_attributes', 'c') === 3);
    expect(updated?.json.changed_attributes).toEqual([{ custom_attributes: { previous_value: { a: 1, b: 2 }, current_value: { c: 3 } } }]);

    for (const h of hooks) {
      const ts = h.headers['x-chatwoot-timestamp'] as string;
      const expected = `sha256=${createHmac('sha256', SECRET).update(`${ts}.${h.raw}`).digest('hex')}`;
      expect(h.headers['x-chatwoot-signature']).toBe(expected);
      expect(h.headers['x-chatwoot-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(inboxHooks.length).toBeGreaterThan(0);
    expect(inboxHooks.some((h) => h.json.event === 'conversation_typing_on')).toBe(true); // the inbox URL gets every event
    expect(inboxHooks.every((h) => h.headers['x-chatwoot-signature'] === undefined)).toBe(true);
    expect(cw.webhookDeliveries.every((d) => d.status === 200)).toBe(true);
  });
});

// Chatwoot's Application API, the calls the product makes (reference/chatwoot.md, REST table).
// Auth: header api_access_token = an agent's access token (401 {error} otherwise); the agent must
// belong to the account in the path (401). Conversations are addressed by display_id. Non-admin
// agents only reach conversations of inboxes they are members of (401, Chatwoot's Pundit reply).
import { Hono, type Context } from 'hono';
import type { ChatwootActions } from './actions.ts';
import { bool, errorResponse, int, obj, readBody, str } from './http.ts';
import { messageRoutes } from './rest-messages.ts';
import { agentJson, contactPush, conversationRest, inboxJson } from './serialize.ts';
import type { ChatwootStore } from './store.ts';
import {
  CONVERSATION_STATUSES,
  ChatwootError,
  MESSAGE_TYPES,
  notFound,
  unprocessable,
  type Agent,
  type Conversation,
  type ConversationStatus,
  type JsonObject,
} from './types.ts';

export type Env = { Variables: { agent: Agent; accountId: number } };
export type Ctx = Context<Env>;

const PAGE_SIZE = 25;

export function applicationApi(store: ChatwootStore, actions: ChatwootActions): Hono<Env> {
  const app = new Hono<Env>();
  app.onError((err, c) => errorResponse(c, err));

  app.use('/api/v1/accounts/:accountId/*', async (c, next) => {
    const token = c.req.header('api_access_token') ?? '';
    const agent = token === '' ? undefined : store.agentByAccessToken(token);
    if (!agent) return c.json({ error: 'Invalid Access Token' }, 401);
    const accountId = int(c.req.param('accountId'));
    if (accountId === null || !store.accounts.has(accountId))
      return c.json({ error: 'Resource could not be found' }, 404);
    if (!agent.accountIds.includes(accountId))
      return c.json({ error: 'You are not authorized to access this account' }, 401);
    c.set('agent', agent);
    c.set('accountId', accountId);
    await next();
  });

  const canSee = (agent: Agent, inboxId: number): boolean =>
    agent.role === 'administrator' || (store.inboxes.get(inboxId)?.memberIds.includes(agent.id) ?? false);

  const conversationOf = (c: Ctx): Conversation => {
    const displayId = int(c.req.param('id'));
    if (displayId === null) throw notFound();
    const conversation = actions.conversation(c.get('accountId'), displayId);
    if (!canSee(c.get('agent'), conversation.inboxId))
      throw new ChatwootError(401, { error: 'You are not authorized to do this action' });
    return conversation;
  };
  const actor = (c: Ctx) => ({ type: 'user', id: c.get('agent').id }) as const;
  const base = '/api/v1/accounts/:accountId';

  app.get(`${base}/inboxes`, (c) => {
    const inboxes = [...store.inboxes.values()].filter(
      (i) => i.accountId === c.get('accountId') && canSee(c.get('agent'), i.id),
    );
    return c.json({ payload: inboxes.map(inboxJson) });
  });

  app.get(`${base}/conversations`, (c) => {
    const agent = c.get('agent');
    const status = c.req.query('status') ?? 'open';
    const inboxId = int(c.req.query('inbox_id'));
    const page = Math.max(1, int(c.req.query('page')) ?? 1);
    const visible = [...store.conversations.values()]
      .filter((v) => v.accountId === c.get('accountId') && canSee(agent, v.inboxId))
      .filter((v) => (status === 'all' ? true : v.status === status))
      .filter((v) => inboxId === null || v.inboxId === inboxId)
      .sort((a, b) => b.lastActivityAtMs - a.lastActivityAtMs || b.id - a.id);
    const mine = visible.filter((v) => v.assigneeId === agent.id);
    const assigned = visible.filter((v) => v.assigneeId !== null);
    const unassigned = visible.filter((v) => v.assigneeId === null);
    const type = c.req.query('assignee_type') ?? 'all';
    const chosen =
      type === 'me' ? mine : type === 'assigned' ? assigned : type === 'unassigned' ? unassigned : visible;
    const meta = {
      mine_count: mine.length,
      assigned_count: assigned.length,
      unassigned_count: unassigned.length,
      all_count: visible.length,
    };
    const payload = chosen
      .slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
      .map((v) => conversationRest(store, v));
    return c.json({ data: { meta, payload } });
  });

  app.post(`${base}/conversations`, async (c) => {
    const body = await readBody(c);
    const accountId = c.get('accountId');
    const inbox = store.inboxes.get(int(body.inbox_id) ?? -1);
    if (!inbox || inbox.accountId !== accountId) throw notFound();
    const sourceId = str(body.source_id);
    const contactId = int(body.contact_id);
    let contactInbox = sourceId === null ? undefined : store.contactInboxBySource(inbox.id, sourceId);
    if (!contactInbox && contactId !== null) {
      const contact = store.contacts.get(contactId);
      if (!contact || contact.accountId !== accountId) throw notFound();
      contactInbox =
        [...store.contactInboxes.values()].find(
          (ci) =>
            ci.contactId === contact.id &&
            ci.inboxId === inbox.id &&
            (sourceId === null || ci.sourceId === sourceId),
        ) ?? store.addContactInbox(contact.id, inbox.id, sourceId ?? undefined);
    }
    if (!contactInbox)
      throw sourceId === null ? unprocessable('source_id or contact_id is required') : notFound();
    const status = str(body.status);
    if (status !== null && !CONVERSATION_STATUSES.includes(status as ConversationStatus))
      throw unprocessable(`'${status}' is not a valid status`);
    const message = obj(body.message);
    const content = message ? str(message.content) : null;
    const conversation = actions.openConversation({
      contactInboxId: contactInbox.id,
      ...(status !== null ? { status: status as ConversationStatus } : {}),
      ...(body.assignee_id !== undefined ? { assigneeId: int(body.assignee_id) } : {}),
      customAttributes: obj(body.custom_attributes) ?? {},
      additionalAttributes: obj(body.additional_attributes) ?? {},
      ...(content !== null
        ? { firstMessage: { content, sender: actor(c), messageType: MESSAGE_TYPES.outgoing } }
        : {}),
    });
    return c.json(conversationRest(store, conversation));
  });

  app.get(`${base}/conversations/:id`, (c) => c.json(conversationRest(store, conversationOf(c))));

  messageRoutes(app, { store, actions, conversationOf, actor, base });

  app.post(`${base}/conversations/:id/assignments`, async (c) => {
    const conversation = conversationOf(c);
    const body = await readBody(c);
    if (!('assignee_id' in body)) return c.json(null);
    const assigned = actions.assign(conversation, int(body.assignee_id), actor(c));
    const agent = assigned === null ? undefined : store.agents.get(assigned);
    return c.json(agent ? agentJson(agent, conversation.accountId) : null);
  });

  app.post(`${base}/conversations/:id/toggle_status`, async (c) => {
    const conversation = conversationOf(c);
    const requested = str((await readBody(c)).status);
    if (requested !== null && !CONVERSATION_STATUSES.includes(requested as ConversationStatus))
      throw unprocessable(`'${requested}' is not a valid status`);
    // Without a status Chatwoot toggles between open and resolved.
    const next = (requested ?? (conversation.status === 'open' ? 'resolved' : 'open')) as ConversationStatus;
    actions.changeStatus(conversation, next, actor(c));
    const payload = {
      success: true,
      conversation_id: conversation.displayId,
      current_status: conversation.status,
      snoozed_until: null,
    };
    return c.json({ meta: {}, payload });
  });

  app.post(`${base}/conversations/:id/custom_attributes`, async (c) => {
    const conversation = conversationOf(c);
    const attributes = obj((await readBody(c)).custom_attributes);
    if (!attributes) throw unprocessable('custom_attributes must be an object');
    actions.setCustomAttributes(conversation, attributes);
    return c.json({ custom_attributes: conversation.customAttributes });
  });

  // The dashboard calls this whenever an agent opens the conversation (see actions.agentViews).
  app.post(`${base}/conversations/:id/update_last_seen`, (c) => {
    actions.agentViews(conversationOf(c), actor(c).id);
    return c.body(null, 200);
  });

  app.post(`${base}/conversations/:id/toggle_typing_status`, async (c) => {
    const conversation = conversationOf(c);
    const body = await readBody(c);
    const status = str(body.typing_status);
    if (status !== 'on' && status !== 'off' && status !== 'recording')
      throw unprocessable('typing_status must be on or off');
    actions.typing(conversation, status !== 'off', actor(c), bool(body.is_private));
    return c.body(null, 200);
  });

  app.post(`${base}/contacts`, async (c) => {
    const body = await readBody(c);
    const accountId = c.get('accountId');
    const email = str(body.email);
    const taken = (field: 'email' | 'identifier', value: string | null) =>
      value !== null &&
      [...store.contacts.values()].some((x) => x.accountId === accountId && x[field] === value);
    if (taken('email', email))
      throw new ChatwootError(422, { message: 'Email has already been taken', attributes: ['email'] });
    if (taken('identifier', str(body.identifier)))
      throw new ChatwootError(422, {
        message: 'Identifier has already been taken',
        attributes: ['identifier'],
      });
    const inboxId = int(body.inbox_id);
    const inbox = inboxId === null ? undefined : store.inboxes.get(inboxId);
    if (inboxId !== null && (!inbox || inbox.accountId !== accountId)) throw notFound();
    const contact = store.addContact({
      accountId,
      name: str(body.name) ?? '',
      email,
      phoneNumber: str(body.phone_number),
      identifier: str(body.identifier),
      customAttributes: obj(body.custom_attributes) ?? {},
    });
    const ci = inbox
      ? store.addContactInbox(contact.id, inbox.id, str(body.source_id) ?? undefined)
      : undefined;
    const payload: JsonObject = {
      contact: {
        ...contactPush(contact),
        contact_inboxes: ci && inbox ? [{ source_id: ci.sourceId, inbox: inboxJson(inbox) }] : [],
      },
    };
    payload.contact_inbox = ci && inbox ? { inbox: inboxJson(inbox), source_id: ci.sourceId } : null;
    return c.json({ payload });
  });

  return app;
}

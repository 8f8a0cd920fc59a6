// Chatwoot's client (public) API for API inboxes: no auth header; the inbox_identifier and the
// contact_inbox source_id in the path are the credentials. This is how an end user's contact gets a
// RoomChannel pubsub_token. A contact only ever sees non-private, non-activity messages of its own
// conversations, both here and on the socket.
import { Hono, type Context } from 'hono';
import { FloodError, type ChatwootActions } from './actions.ts';
import { errorResponse, int, obj, readBody, str } from './http.ts';
import { attachmentPush, contactPush, isChatMessage, seenSecs } from './serialize.ts';
import type { ChatwootStore } from './store.ts';
import {
  ChatwootError,
  MESSAGE_TYPES,
  notFound,
  type ContactInbox,
  type Conversation,
  type Inbox,
  type JsonObject,
  type Message,
} from './types.ts';

function publicMessage(store: ChatwootStore, m: Message, conversation: Conversation): JsonObject {
  const data: JsonObject = {
    id: m.id,
    content: m.content,
    message_type: m.messageType,
    content_type: m.contentType,
    content_attributes: m.contentAttributes,
    created_at: Math.floor(m.createdAtMs / 1000),
    conversation_id: conversation.displayId,
  };
  if (m.attachments.length > 0) data.attachments = m.attachments.map(attachmentPush);
  const sender = m.sender?.type === 'user' ? store.agents.get(m.sender.id) : undefined;
  const contact = m.sender?.type === 'contact' ? store.contacts.get(m.sender.id) : undefined;
  if (sender)
    data.sender = {
      id: sender.id,
      name: sender.name,
      available_name: sender.name,
      avatar_url: '',
      type: 'user',
    };
  else if (contact) data.sender = contactPush(contact);
  return data;
}

function publicConversation(store: ChatwootStore, c: Conversation): JsonObject {
  const contact = store.contacts.get(c.contactId);
  return {
    id: c.displayId,
    uuid: c.uuid,
    inbox_id: c.inboxId,
    contact_last_seen_at: 0,
    status: c.status,
    agent_last_seen_at: seenSecs(c.agentLastSeenAtMs),
    messages: store
      .messagesOf(c.id)
      .filter(isChatMessage)
      .map((m) => publicMessage(store, m, c)),
    contact: contact
      ? { id: contact.id, name: contact.name, email: contact.email, phone_number: contact.phoneNumber }
      : null,
  };
}

function contactInboxJson(store: ChatwootStore, ci: ContactInbox): JsonObject {
  const contact = store.contacts.get(ci.contactId);
  return {
    source_id: ci.sourceId,
    pubsub_token: ci.pubsubToken,
    id: ci.contactId,
    name: contact?.name ?? '',
    email: contact?.email ?? null,
    phone_number: contact?.phoneNumber ?? null,
  };
}

export function clientApi(store: ChatwootStore, actions: ChatwootActions): Hono {
  const app = new Hono();
  app.onError((err, c) => errorResponse(c, err));
  const base = '/public/api/v1/inboxes/:inboxIdentifier';

  const inboxOf = (c: Context): Inbox => {
    const inbox = store.inboxByIdentifier(c.req.param('inboxIdentifier') ?? '');
    if (!inbox) throw notFound();
    return inbox;
  };
  const contactInboxOf = (c: Context): ContactInbox => {
    const ci = store.contactInboxBySource(inboxOf(c).id, c.req.param('sourceId') ?? '');
    if (!ci) throw notFound();
    return ci;
  };
  const conversationOf = (c: Context): Conversation => {
    const ci = contactInboxOf(c);
    const displayId = int(c.req.param('conversationId'));
    const conversation = [...store.conversations.values()].find(
      (v) => v.contactInboxId === ci.id && v.displayId === displayId,
    );
    if (!conversation) throw notFound();
    return conversation;
  };

  app.post(`${base}/contacts`, async (c) => {
    const inbox = inboxOf(c);
    const body = await readBody(c);
    const identifier = str(body.identifier);
    const email = str(body.email);
    // Like ContactInboxWithContactBuilder: reuse the account's contact with that identifier or e-mail.
    const existing = [...store.contacts.values()].find(
      (x) =>
        x.accountId === inbox.accountId &&
        ((identifier !== null && x.identifier === identifier) || (email !== null && x.email === email)),
    );
    const contact =
      existing ??
      store.addContact({
        accountId: inbox.accountId,
        name: str(body.name) ?? '',
        email,
        phoneNumber: str(body.phone_number),
        identifier,
        customAttributes: obj(body.custom_attributes) ?? {},
      });
    const ci = store.addContactInbox(contact.id, inbox.id);
    return c.json(contactInboxJson(store, ci));
  });

  app.get(`${base}/contacts/:sourceId`, (c) => c.json(contactInboxJson(store, contactInboxOf(c))));

  app.post(`${base}/contacts/:sourceId/conversations`, async (c) => {
    const ci = contactInboxOf(c);
    const body = await readBody(c);
    const conversation = actions.openConversation({
      contactInboxId: ci.id,
      customAttributes: obj(body.custom_attributes) ?? {},
    });
    return c.json(publicConversation(store, conversation));
  });

  app.get(`${base}/contacts/:sourceId/conversations`, (c) => {
    const ci = contactInboxOf(c);
    const mine = [...store.conversations.values()].filter((v) => v.contactInboxId === ci.id);
    return c.json(mine.map((v) => publicConversation(store, v)));
  });

  app.get(`${base}/contacts/:sourceId/conversations/:conversationId`, (c) =>
    c.json(publicConversation(store, conversationOf(c))),
  );

  app.get(`${base}/contacts/:sourceId/conversations/:conversationId/messages`, (c) => {
    const conversation = conversationOf(c);
    return c.json(
      store
        .messagesOf(conversation.id)
        .filter(isChatMessage)
        .map((m) => publicMessage(store, m, conversation)),
    );
  });

  app.post(`${base}/contacts/:sourceId/conversations/:conversationId/messages`, async (c) => {
    const conversation = conversationOf(c);
    const body = await readBody(c);
    const echoId = str(body.echo_id);
    try {
      const message = actions.createMessage(conversation, {
        content: str(body.content),
        messageType: MESSAGE_TYPES.incoming,
        sender: { type: 'contact', id: conversation.contactId },
        echoId,
      });
      const reply = publicMessage(store, message, conversation);
      if (echoId !== null) reply.echo_id = echoId;
      return c.json(reply);
    } catch (err) {
      // Here the model's RecordInvalid reaches Chatwoot's generic handler: {message, attributes}.
      if (err instanceof FloodError)
        throw new ChatwootError(422, { message: err.message, attributes: ['base'] });
      throw err;
    }
  });

  app.post(`${base}/contacts/:sourceId/conversations/:conversationId/toggle_typing`, async (c) => {
    const conversation = conversationOf(c);
    const on = str((await readBody(c)).typing_status) === 'on';
    actions.typing(conversation, on, { type: 'contact', id: conversation.contactId });
    return c.body(null, 200);
  });

  return app;
}

// Webhook payload pieces (Chatwoot's *.webhook_data): message_type as a string, created_at as an
// ISO string, account and inbox as {id, name}, the conversation as its push data (meta.sender and
// meta.assignee included). Senders: users as {id, name, email, type}; contacts as their push data
// plus avatar and account.
import {
  attachmentPush,
  contactPush,
  conversationOf,
  conversationPush,
  iso,
  messageTypeName,
} from './serialize.ts';
import type { ChatwootStore } from './store.ts';
import type { JsonObject, Message, SenderRef } from './types.ts';

function senderHook(store: ChatwootStore, sender: SenderRef | null): JsonObject | null {
  if (!sender) return null;
  if (sender.type === 'user') {
    const a = store.agents.get(sender.id);
    return a ? { id: a.id, name: a.name, email: a.email, type: 'user' } : null;
  }
  const c = store.contacts.get(sender.id);
  const account = c ? store.accounts.get(c.accountId) : undefined;
  return c
    ? { ...contactPush(c), avatar: '', account: account ? { id: account.id, name: account.name } : null }
    : null;
}

/** message.webhook_data merged with the event name. */
export function messageHook(store: ChatwootStore, m: Message, event: string): JsonObject {
  const account = store.accounts.get(m.accountId);
  const inbox = store.inboxes.get(m.inboxId);
  const data: JsonObject = {
    event,
    account: account ? { id: account.id, name: account.name } : null,
    additional_attributes: {},
    content_attributes: m.contentAttributes,
    content_type: m.contentType,
    content: m.content,
    conversation: conversationPush(store, conversationOf(store, m)),
    created_at: iso(m.createdAtMs),
    id: m.id,
    inbox: inbox ? { id: inbox.id, name: inbox.name } : null,
    message_type: messageTypeName(m.messageType),
    private: m.private,
    sender: senderHook(store, m.sender),
    source_id: m.sourceId,
  };
  if (m.attachments.length > 0) data.attachments = m.attachments.map(attachmentPush);
  return data;
}

export function userHook(store: ChatwootStore, user: SenderRef): JsonObject | null {
  return senderHook(store, user);
}

// JSON shapes as Chatwoot renders them (reference/chatwoot.md). Two families here:
//   push  – ActionCable broadcast data (message_type as an integer, created_at epoch seconds)
//   rest  – Application API replies (same message shape as push; the conversation partial)
// Webhook payloads are in hook-payloads.ts, the client API's own partials in rest-public.ts.
// The shapes carry the fields the reference names plus the common neighbours Chatwoot sends; fields
// the double cannot model meaningfully (SLA, teams, CSAT) are present with neutral values or absent.
import type { ChatwootStore } from './store.ts';
import {
  MESSAGE_TYPES,
  type Agent,
  type Attachment,
  type Contact,
  type Conversation,
  type Inbox,
  type JsonObject,
  type Message,
  type MessageTypeName,
  type SenderRef,
} from './types.ts';

const secs = (ms: number): number => Math.floor(ms / 1000);
/** Chatwoot renders a last-seen time as `.to_i`: Unix seconds, 0 when never seen. */
export const seenSecs = (ms: number | null): number => (ms === null ? 0 : secs(ms));
export const iso = (ms: number): string => new Date(ms).toISOString();

export function messageTypeName(code: number): MessageTypeName {
  const hit = (Object.keys(MESSAGE_TYPES) as MessageTypeName[]).find((k) => MESSAGE_TYPES[k] === code);
  if (!hit) throw new Error(`unknown message_type ${code}`);
  return hit;
}

export function userPush(agent: Agent): JsonObject {
  return {
    id: agent.id,
    name: agent.name,
    available_name: agent.name,
    avatar_url: '',
    type: 'user',
    availability_status: agent.availability,
    thumbnail: '',
  };
}

export function contactPush(contact: Contact): JsonObject {
  return {
    additional_attributes: contact.additionalAttributes,
    custom_attributes: contact.customAttributes,
    email: contact.email,
    id: contact.id,
    identifier: contact.identifier,
    name: contact.name,
    phone_number: contact.phoneNumber,
    thumbnail: '',
    blocked: false,
    type: 'contact',
  };
}

/** The Application API agent partial (assignment replies, conversation meta.assignee). */
export function agentJson(agent: Agent, accountId: number): JsonObject {
  return {
    id: agent.id,
    account_id: accountId,
    availability_status: agent.availability,
    auto_offline: true,
    confirmed: true,
    email: agent.email,
    available_name: agent.name,
    name: agent.name,
    role: agent.role,
    thumbnail: '',
    custom_role_id: null,
  };
}

export function inboxJson(inbox: Inbox): JsonObject {
  const base: JsonObject = {
    id: inbox.id,
    avatar_url: '',
    channel_id: inbox.channelId,
    name: inbox.name,
    channel_type: inbox.channelType,
    greeting_enabled: false,
    greeting_message: null,
    working_hours_enabled: false,
    enable_email_collect: true,
    csat_survey_enabled: false,
    enable_auto_assignment: true,
    out_of_office_message: null,
    working_hours: [],
    timezone: 'UTC',
    allow_messages_after_resolved: true,
    lock_to_single_conversation: false,
    sender_name_type: 'friendly',
    business_name: null,
  };
  if (inbox.channelType === 'Channel::Api') {
    base.webhook_url = inbox.webhookUrl;
    base.inbox_identifier = inbox.inboxIdentifier;
    base.hmac_mandatory = false;
  }
  return base;
}

export function attachmentPush(a: Attachment): JsonObject {
  return {
    id: a.id,
    message_id: a.messageId,
    file_type: a.fileType,
    account_id: null,
    extension: null,
    data_url: a.dataUrl,
    thumb_url: a.thumbUrl,
    file_size: a.fileSize,
    width: a.width,
    height: a.height,
  };
}

function senderPush(store: ChatwootStore, sender: SenderRef | null): JsonObject | null {
  if (!sender) return null;
  if (sender.type === 'user') {
    const agent = store.agents.get(sender.id);
    return agent ? userPush(agent) : null;
  }
  const contact = store.contacts.get(sender.id);
  return contact ? contactPush(contact) : null;
}

export function conversationOf(store: ChatwootStore, m: Message): Conversation {
  const c = store.conversations.get(m.conversationId);
  if (!c) throw new Error(`conversation ${m.conversationId} missing`);
  return c;
}

/** message.push_event_data: every column, conversation_id = display_id, echo_id only when given. */
export function messagePush(store: ChatwootStore, m: Message, echoId: string | null = null): JsonObject {
  const conversation = conversationOf(store, m);
  const data: JsonObject = {
    id: m.id,
    content: m.content,
    account_id: m.accountId,
    inbox_id: m.inboxId,
    conversation_id: conversation.displayId,
    message_type: m.messageType,
    created_at: secs(m.createdAtMs),
    updated_at: iso(m.updatedAtMs),
    private: m.private,
    status: m.status,
    source_id: m.sourceId,
    content_type: m.contentType,
    content_attributes: m.contentAttributes,
    sender_type: m.sender ? (m.sender.type === 'user' ? 'User' : 'Contact') : null,
    sender_id: m.sender?.id ?? null,
    external_source_ids: {},
    additional_attributes: {},
    processed_message_content: m.content,
    sentiment: {},
    conversation: {
      assignee_id: conversation.assigneeId,
      unread_count: 0,
      last_activity_at: secs(conversation.lastActivityAtMs),
      contact_inbox: { source_id: store.contactInboxOf(conversation).sourceId },
    },
  };
  const sender = senderPush(store, m.sender);
  if (sender) data.sender = sender;
  if (m.attachments.length > 0) data.attachments = m.attachments.map(attachmentPush);
  if (echoId !== null) data.echo_id = echoId;
  return data;
}

/** Messages that count as the conversation's chat: neither private notes nor activity lines. */
export const isChatMessage = (m: Message): boolean => !m.private && m.messageType !== MESSAGE_TYPES.activity;

/** conversation.push_event_data (also Chatwoot's conversation webhook_data). */
export function conversationPush(store: ChatwootStore, c: Conversation): JsonObject {
  const inbox = store.inboxes.get(c.inboxId);
  const contact = store.contacts.get(c.contactId);
  const assignee = c.assigneeId === null ? undefined : store.agents.get(c.assigneeId);
  const ci = store.contactInboxOf(c);
  const lastChat = store.messagesOf(c.id).filter(isChatMessage).at(-1);
  return {
    additional_attributes: c.additionalAttributes,
    can_reply: true,
    channel: inbox?.channelType ?? null,
    contact_inbox: {
      id: ci.id,
      contact_id: ci.contactId,
      inbox_id: ci.inboxId,
      source_id: ci.sourceId,
      hmac_verified: false,
      pubsub_token: ci.pubsubToken,
    },
    id: c.displayId,
    inbox_id: c.inboxId,
    messages: lastChat ? [messagePush(store, lastChat)] : [],
    labels: c.labels,
    meta: {
      sender: contact ? contactPush(contact) : null,
      assignee: assignee ? userPush(assignee) : null,
      assignee_type: assignee ? 'User' : null,
      team: null,
      hmac_verified: false,
    },
    status: c.status,
    custom_attributes: c.customAttributes,
    snoozed_until: null,
    unread_count: 0,
    first_reply_created_at: null,
    priority: null,
    waiting_since: 0,
    agent_last_seen_at: seenSecs(c.agentLastSeenAtMs),
    contact_last_seen_at: 0,
    last_activity_at: secs(c.lastActivityAtMs),
    timestamp: secs(c.lastActivityAtMs),
    created_at: secs(c.createdAtMs),
    updated_at: c.updatedAtMs / 1000,
  };
}

/** The Application API conversation partial (GET/POST conversations, list payload items). */
export function conversationRest(store: ChatwootStore, c: Conversation): JsonObject {
  const inbox = store.inboxes.get(c.inboxId);
  const contact = store.contacts.get(c.contactId);
  const assignee = c.assigneeId === null ? undefined : store.agents.get(c.assigneeId);
  const all = store.messagesOf(c.id);
  const last = all.at(-1);
  const lastNonActivity = all.filter((m) => m.messageType !== MESSAGE_TYPES.activity).at(-1);
  const meta: JsonObject = {
    sender: contact ? contactPush(contact) : null,
    channel: inbox?.channelType ?? null,
    hmac_verified: false,
  };
  if (assignee) meta.assignee = agentJson(assignee, c.accountId);
  return {
    meta,
    id: c.displayId,
    messages: last ? [messagePush(store, last)] : [],
    account_id: c.accountId,
    uuid: c.uuid,
    additional_attributes: c.additionalAttributes,
    agent_last_seen_at: seenSecs(c.agentLastSeenAtMs),
    assignee_last_seen_at: seenSecs(c.assigneeLastSeenAtMs),
    can_reply: true,
    contact_last_seen_at: 0,
    custom_attributes: c.customAttributes,
    inbox_id: c.inboxId,
    labels: c.labels,
    muted: false,
    snoozed_until: null,
    status: c.status,
    created_at: secs(c.createdAtMs),
    updated_at: c.updatedAtMs / 1000,
    timestamp: secs(c.lastActivityAtMs),
    first_reply_created_at: 0,
    unread_count: 0,
    last_non_activity_message: lastNonActivity ? messagePush(store, lastNonActivity) : null,
    last_activity_at: secs(c.lastActivityAtMs),
    priority: null,
    waiting_since: 0,
    sla_policy_id: null,
  };
}

// In-memory model of the slice of Chatwoot the product talks to (reference/chatwoot.md).
// Ids are numbers as in Chatwoot; a conversation is addressed from outside by its per-account
// display_id, never by its internal id. Times are kept in epoch milliseconds and rendered as
// Chatwoot renders them (epoch seconds in push/REST payloads, ISO strings in webhooks).

export type ConversationStatus = 'open' | 'resolved' | 'pending' | 'snoozed';
export const CONVERSATION_STATUSES: readonly ConversationStatus[] = [
  'open',
  'resolved',
  'pending',
  'snoozed',
];

/** Chatwoot's message_type enum: the integer is what push and REST payloads carry. */
export const MESSAGE_TYPES = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;
export type MessageTypeName = keyof typeof MESSAGE_TYPES;
export type MessageTypeCode = (typeof MESSAGE_TYPES)[MessageTypeName];

export type ChannelType = 'Channel::Api' | 'Channel::WebWidget';
export type AgentRole = 'administrator' | 'agent';
export type Availability = 'online' | 'busy' | 'offline';
export type JsonObject = Record<string, unknown>;

export interface Account {
  id: number;
  name: string;
}

/** A Chatwoot User: pubsubToken opens RoomChannel, accessToken is the api_access_token. */
export interface Agent {
  id: number;
  name: string;
  email: string;
  role: AgentRole;
  accountIds: number[];
  availability: Availability;
  pubsubToken: string;
  accessToken: string;
}

export interface Inbox {
  id: number;
  accountId: number;
  name: string;
  channelType: ChannelType;
  channelId: number;
  /** Only API inboxes have one; it is the public client API's inbox key. */
  inboxIdentifier: string | null;
  /** API inbox callback URL: receives every webhook event of the inbox. */
  webhookUrl: string | null;
  /** Signing secret for webhookUrl deliveries (the newer signed-webhook behaviour). */
  webhookSecret: string | null;
  /** Agents (non-admins) who see this inbox; administrators see every inbox of the account. */
  memberIds: number[];
}

export interface Contact {
  id: number;
  accountId: number;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  identifier: string | null;
  customAttributes: JsonObject;
  additionalAttributes: JsonObject;
}

/** The (contact, inbox) pair: source_id addresses it in the client API, pubsubToken opens RoomChannel. */
export interface ContactInbox {
  id: number;
  contactId: number;
  inboxId: number;
  sourceId: string;
  pubsubToken: string;
}

export interface Conversation {
  id: number;
  displayId: number;
  accountId: number;
  inboxId: number;
  contactId: number;
  contactInboxId: number;
  uuid: string;
  status: ConversationStatus;
  assigneeId: number | null;
  customAttributes: JsonObject;
  additionalAttributes: JsonObject;
  labels: string[];
  createdAtMs: number;
  updatedAtMs: number;
  lastActivityAtMs: number;
  /** When an agent last opened the conversation in the dashboard (null = never); the assignee's
   *  own time beside it. Set only by update_last_seen, which sends no webhook (see actions.ts). */
  agentLastSeenAtMs: number | null;
  assigneeLastSeenAtMs: number | null;
}

export type SenderRef = { type: 'user'; id: number } | { type: 'contact'; id: number };

export interface Attachment {
  id: number;
  messageId: number;
  fileType: 'image' | 'audio' | 'video' | 'file' | 'location' | 'fallback';
  dataUrl: string;
  thumbUrl: string;
  fileSize: number;
  width: number | null;
  height: number | null;
}

export interface Message {
  /** Global across accounts, increasing: the order of creation. */
  id: number;
  accountId: number;
  inboxId: number;
  conversationId: number;
  content: string | null;
  messageType: MessageTypeCode;
  contentType: string;
  contentAttributes: JsonObject;
  private: boolean;
  /** Client correlation id: persisted and present in REST, socket and webhook payloads. */
  sourceId: string | null;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  sender: SenderRef | null;
  attachments: Attachment[];
  createdAtMs: number;
  updatedAtMs: number;
}

export interface AccountWebhook {
  id: number;
  accountId: number;
  url: string;
  /** Event names as Chatwoot stores them: message_created, conversation_updated, … */
  subscriptions: string[];
  secret: string | null;
}

/** The attribute changes Chatwoot reports as changed_attributes: name → [previous, current]. */
export type Changes = Record<string, [unknown, unknown]>;

/** Domain events: each becomes a RoomChannel broadcast and/or a webhook delivery. */
export type DomainEvent =
  | { name: 'message.created'; message: Message; echoId: string | null }
  | { name: 'message.updated'; message: Message }
  | { name: 'conversation.created'; conversation: Conversation }
  | { name: 'conversation.status_changed'; conversation: Conversation; changes: Changes }
  | { name: 'conversation.updated'; conversation: Conversation; changes: Changes }
  | {
      name: 'conversation.typing_on' | 'conversation.typing_off';
      conversation: Conversation;
      user: SenderRef;
      isPrivate: boolean;
    }
  | { name: 'assignee.changed'; conversation: Conversation };

/** An error carried to the HTTP layer with Chatwoot's status and body. */
export class ChatwootError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 422,
    readonly body: JsonObject,
  ) {
    super(
      typeof body.error === 'string'
        ? body.error
        : typeof body.message === 'string'
          ? body.message
          : `HTTP ${status}`,
    );
  }
}

export const notFound = (): ChatwootError => new ChatwootError(404, { error: 'Resource could not be found' });
export const unprocessable = (error: string): ChatwootError => new ChatwootError(422, { error });

// The double's whole state, in memory. Pure data plus lookups and plain inserts: no events fire
// here (actions.ts does that), so tests may seed or inspect the store directly without side effects.
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  Account,
  AccountWebhook,
  Agent,
  AgentRole,
  ChannelType,
  Contact,
  Inbox,
  ContactInbox,
  Conversation,
  ConversationStatus,
  JsonObject,
  Message,
} from './types.ts';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A 24-character base58 token, the shape of Rails' has_secure_token values. */
export function secureToken(length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

type Kind =
  | 'account'
  | 'agent'
  | 'inbox'
  | 'channel'
  | 'contact'
  | 'contactInbox'
  | 'conversation'
  | 'message'
  | 'attachment'
  | 'webhook';

export class ChatwootStore {
  readonly accounts = new Map<number, Account>();
  readonly agents = new Map<number, Agent>();
  readonly inboxes = new Map<number, Inbox>();
  readonly contacts = new Map<number, Contact>();
  readonly contactInboxes = new Map<number, ContactInbox>();
  readonly conversations = new Map<number, Conversation>();
  readonly messages = new Map<number, Message>();
  readonly webhooks = new Map<number, AccountWebhook>();
  /** Uploaded attachment files by their blob key (served at data_url, as ActiveStorage serves them). */
  readonly files = new Map<string, { bytes: Uint8Array; type: string; name: string }>();
  private readonly seq = new Map<Kind, number>();
  /** display_id is a per-account sequence, as in Chatwoot. */
  private readonly displaySeq = new Map<number, number>();

  nextId(kind: Kind): number {
    const next = (this.seq.get(kind) ?? 0) + 1;
    this.seq.set(kind, next);
    return next;
  }

  addAccount(name: string): Account {
    const account = { id: this.nextId('account'), name };
    this.accounts.set(account.id, account);
    return account;
  }

  addAgent(input: {
    name: string;
    email: string;
    role: AgentRole;
    accountIds: number[];
    accessToken?: string;
  }): Agent {
    const agent: Agent = {
      id: this.nextId('agent'),
      name: input.name,
      email: input.email,
      role: input.role,
      accountIds: [...input.accountIds],
      availability: 'online',
      pubsubToken: secureToken(),
      accessToken: input.accessToken ?? secureToken(),
    };
    this.agents.set(agent.id, agent);
    return agent;
  }

  addInbox(input: {
    accountId: number;
    name: string;
    channelType?: ChannelType;
    webhookUrl?: string | null;
    webhookSecret?: string | null;
    memberIds?: number[];
  }): Inbox {
    const channelType = input.channelType ?? 'Channel::Api';
    const inbox = {
      id: this.nextId('inbox'),
      accountId: input.accountId,
      name: input.name,
      channelType,
      channelId: this.nextId('channel'),
      inboxIdentifier: channelType === 'Channel::Api' ? secureToken() : null,
      webhookUrl: input.webhookUrl ?? null,
      webhookSecret: input.webhookSecret ?? null,
      memberIds: [...(input.memberIds ?? [])],
    };
    this.inboxes.set(inbox.id, inbox);
    return inbox;
  }

  addContact(input: {
    accountId: number;
    name?: string;
    email?: string | null;
    phoneNumber?: string | null;
    identifier?: string | null;
    customAttributes?: JsonObject;
  }): Contact {
    const contact: Contact = {
      id: this.nextId('contact'),
      accountId: input.accountId,
      name: input.name ?? '',
      email: input.email ?? null,
      phoneNumber: input.phoneNumber ?? null,
      identifier: input.identifier ?? null,
      customAttributes: { ...(input.customAttributes ?? {}) },
      additionalAttributes: {},
    };
    this.contacts.set(contact.id, contact);
    return contact;
  }

  addContactInbox(contactId: number, inboxId: number, sourceId?: string): ContactInbox {
    const ci: ContactInbox = {
      id: this.nextId('contactInbox'),
      contactId,
      inboxId,
      sourceId: sourceId ?? randomUUID(),
      pubsubToken: secureToken(),
    };
    this.contactInboxes.set(ci.id, ci);
    return ci;
  }

  addConversation(input: {
    contactInbox: ContactInbox;
    status?: ConversationStatus;
    assigneeId?: number | null;
    customAttributes?: JsonObject;
    additionalAttributes?: JsonObject;
  }): Conversation {
    const inbox = this.inboxes.get(input.contactInbox.inboxId);
    if (!inbox) throw new Error(`inbox ${input.contactInbox.inboxId} missing`);
    const display = (this.displaySeq.get(inbox.accountId) ?? 0) + 1;
    this.displaySeq.set(inbox.accountId, display);
    const now = Date.now();
    const conversation: Conversation = {
      id: this.nextId('conversation'),
      displayId: display,
      accountId: inbox.accountId,
      inboxId: inbox.id,
      contactId: input.contactInbox.contactId,
      contactInboxId: input.contactInbox.id,
      uuid: randomUUID(),
      status: input.status ?? 'open',
      assigneeId: input.assigneeId ?? null,
      customAttributes: { ...(input.customAttributes ?? {}) },
      additionalAttributes: { ...(input.additionalAttributes ?? {}) },
      labels: [],
      createdAtMs: now,
      updatedAtMs: now,
      lastActivityAtMs: now,
      agentLastSeenAtMs: null,
      assigneeLastSeenAtMs: null,
    };
    this.conversations.set(conversation.id, conversation);
    return conversation;
  }

  addMessage(message: Omit<Message, 'id'>): Message {
    const stored: Message = { ...message, id: this.nextId('message') };
    this.messages.set(stored.id, stored);
    return stored;
  }

  addWebhook(accountId: number, url: string, subscriptions: string[], secret: string | null): AccountWebhook {
    const hook = { id: this.nextId('webhook'), accountId, url, subscriptions: [...subscriptions], secret };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  // ---- lookups -------------------------------------------------------------------------------

  agentByAccessToken(token: string): Agent | undefined {
    for (const a of this.agents.values()) if (a.accessToken === token) return a;
    return undefined;
  }

  contactInboxByPubsub(token: string): ContactInbox | undefined {
    for (const ci of this.contactInboxes.values()) if (ci.pubsubToken === token) return ci;
    return undefined;
  }

  contactInboxBySource(inboxId: number, sourceId: string): ContactInbox | undefined {
    for (const ci of this.contactInboxes.values())
      if (ci.inboxId === inboxId && ci.sourceId === sourceId) return ci;
    return undefined;
  }

  inboxByIdentifier(identifier: string): Inbox | undefined {
    for (const i of this.inboxes.values())
      if (i.inboxIdentifier !== null && i.inboxIdentifier === identifier) return i;
    return undefined;
  }

  conversationByDisplayId(accountId: number, displayId: number): Conversation | undefined {
    for (const c of this.conversations.values())
      if (c.accountId === accountId && c.displayId === displayId) return c;
    return undefined;
  }

  /** Messages of one conversation, oldest first (ids increase with creation). */
  messagesOf(conversationId: number): Message[] {
    return [...this.messages.values()]
      .filter((m) => m.conversationId === conversationId)
      .sort((a, b) => a.id - b.id);
  }

  /** Agents who receive a conversation's agent-side events: the inbox's members plus every administrator. */
  inboxAudience(inboxId: number): Agent[] {
    const inbox = this.inboxes.get(inboxId);
    if (!inbox) return [];
    return [...this.agents.values()].filter(
      (a) =>
        a.accountIds.includes(inbox.accountId) &&
        (a.role === 'administrator' || inbox.memberIds.includes(a.id)),
    );
  }

  contactInboxOf(conversation: Conversation): ContactInbox {
    const ci = this.contactInboxes.get(conversation.contactInboxId);
    if (!ci) throw new Error(`contact_inbox ${conversation.contactInboxId} missing`);
    return ci;
  }
}

// Domain operations shared by the REST layers and the test-facing helpers (agentReply, resolve, …).
// Each mutates the store and emits the domain events Chatwoot would dispatch for it; the sink turns
// them into RoomChannel broadcasts and webhook deliveries. Invariant: an operation that changes
// nothing (same status, same assignee) emits nothing, as Chatwoot only dispatches on saved changes.
import type { ChatwootStore } from './store.ts';
import {
  MESSAGE_TYPES,
  notFound,
  unprocessable,
  type Attachment,
  type Changes,
  type Conversation,
  type ConversationStatus,
  type DomainEvent,
  type JsonObject,
  type Message,
  type MessageTypeCode,
  type SenderRef,
} from './types.ts';

/** Chatwoot's CONVERSATION_MESSAGE_PER_MINUTE_LIMIT default: messages per conversation per minute. */
export const FLOOD_LIMIT_PER_MINUTE = 200;

/** Raised when a conversation already holds FLOOD_LIMIT_PER_MINUTE messages from the last minute. */
export class FloodError extends Error {
  constructor() {
    super('Too many messages');
  }
}

export interface EventSink {
  emit(event: DomainEvent): void;
}

export interface NewMessage {
  content: string | null;
  messageType: MessageTypeCode;
  sender: SenderRef | null;
  private?: boolean;
  contentType?: string;
  contentAttributes?: JsonObject;
  sourceId?: string | null;
  echoId?: string | null;
  attachments?: Array<Omit<Attachment, 'id' | 'messageId'>>;
}

export class ChatwootActions {
  constructor(
    private readonly store: ChatwootStore,
    private readonly sink: EventSink,
  ) {}

  conversation(accountId: number, displayId: number): Conversation {
    const c = this.store.conversationByDisplayId(accountId, displayId);
    if (!c) throw notFound();
    return c;
  }

  private actorName(actor: SenderRef | null): string {
    if (!actor) return 'system';
    return (
      (actor.type === 'user'
        ? this.store.agents.get(actor.id)?.name
        : this.store.contacts.get(actor.id)?.name) ?? 'system'
    );
  }

  /** Creates a message; the flood limit counts every message type, as Chatwoot's model validation does. */
  createMessage(conversation: Conversation, input: NewMessage): Message {
    const now = Date.now();
    const recent = this.store.messagesOf(conversation.id).filter((m) => m.createdAtMs >= now - 60_000).length;
    if (recent >= FLOOD_LIMIT_PER_MINUTE) throw new FloodError();
    const message = this.store.addMessage({
      accountId: conversation.accountId,
      inboxId: conversation.inboxId,
      conversationId: conversation.id,
      content: input.content,
      messageType: input.messageType,
      contentType: input.contentType ?? 'text',
      contentAttributes: { ...(input.contentAttributes ?? {}) },
      private: input.private ?? false,
      sourceId: input.sourceId ?? null,
      status: 'sent',
      sender: input.sender,
      attachments: [],
      createdAtMs: now,
      updatedAtMs: now,
    });
    message.attachments = (input.attachments ?? []).map((a) => ({
      ...a,
      id: this.store.nextId('attachment'),
      messageId: message.id,
    }));
    conversation.lastActivityAtMs = now;
    conversation.updatedAtMs = now;
    this.sink.emit({ name: 'message.created', message, echoId: input.echoId ?? null });
    // A customer writing into a resolved or snoozed conversation reopens it (Chatwoot's reopen rule).
    if (
      input.messageType === MESSAGE_TYPES.incoming &&
      (conversation.status === 'resolved' || conversation.status === 'snoozed')
    ) {
      this.changeStatus(conversation, 'open', input.sender);
    }
    return message;
  }

  /** Edits a message in place (status, content, content_attributes) and broadcasts message.updated. */
  updateMessage(
    message: Message,
    patch: { content?: string | null; contentAttributes?: JsonObject; status?: Message['status'] },
  ): Message {
    if (patch.content !== undefined) message.content = patch.content;
    if (patch.contentAttributes !== undefined)
      message.contentAttributes = { ...message.contentAttributes, ...patch.contentAttributes };
    if (patch.status !== undefined) message.status = patch.status;
    message.updatedAtMs = Date.now();
    // Chatwoot's Message `belongs_to :conversation, touch: true`: the conversation's updated_at moves
    // too, and message_updated carries it (the webhook orders events by it, R14.9).
    const conversation = this.store.conversations.get(message.conversationId);
    if (conversation) conversation.updatedAtMs = message.updatedAtMs;
    this.sink.emit({ name: 'message.updated', message });
    return message;
  }

  private activity(conversation: Conversation, content: string): void {
    this.createMessage(conversation, { content, messageType: MESSAGE_TYPES.activity, sender: null });
  }

  changeStatus(conversation: Conversation, status: ConversationStatus, actor: SenderRef | null): void {
    const previous = conversation.status;
    if (previous === status) return;
    conversation.status = status;
    conversation.updatedAtMs = Date.now();
    const changes: Changes = { status: [previous, status] };
    this.sink.emit({ name: 'conversation.status_changed', conversation, changes });
    this.sink.emit({ name: 'conversation.updated', conversation, changes });
    const who = this.actorName(actor);
    const line =
      status === 'resolved'
        ? `Conversation was marked resolved by ${who}`
        : status === 'open'
          ? `Conversation was reopened by ${who}`
          : `Conversation was marked ${status} by ${who}`;
    this.activity(conversation, line);
  }

  /** Assigns (or with null unassigns). An id that is not an agent of the account unassigns, as in Chatwoot. */
  assign(conversation: Conversation, assigneeId: number | null, actor: SenderRef | null): number | null {
    const agent = assigneeId === null ? undefined : this.store.agents.get(assigneeId);
    const next = agent && agent.accountIds.includes(conversation.accountId) ? agent.id : null;
    const previous = conversation.assigneeId;
    if (previous === next) return next;
    conversation.assigneeId = next;
    conversation.updatedAtMs = Date.now();
    this.sink.emit({ name: 'assignee.changed', conversation });
    this.sink.emit({
      name: 'conversation.updated',
      conversation,
      changes: { assignee_id: [previous, next] },
    });
    const who = this.actorName(actor);
    this.activity(
      conversation,
      agent && next !== null ? `Assigned to ${agent.name} by ${who}` : `Conversation unassigned by ${who}`,
    );
    return next;
  }

  /** Replaces the whole custom_attributes hash. */
  setCustomAttributes(conversation: Conversation, attributes: JsonObject): void {
    const previous = conversation.customAttributes;
    conversation.customAttributes = { ...attributes };
    conversation.updatedAtMs = Date.now();
    if (JSON.stringify(previous) === JSON.stringify(conversation.customAttributes)) return;
    this.sink.emit({
      name: 'conversation.updated',
      conversation,
      changes: { custom_attributes: [previous, conversation.customAttributes] },
    });
  }

  /**
   * An agent opens the conversation in the dashboard, which calls POST .../conversations/:id/
   * update_last_seen. Chatwoot (chatwoot/chatwoot app/controllers/api/v1/accounts/
   * conversations_controller.rb#update_last_seen and #update_last_seen_on_conversation) writes
   * agent_last_seen_at (and assignee_last_seen_at when the viewer is the assignee) with
   * `update_columns`, which skips callbacks: no conversation_updated, no webhook, no broadcast to the
   * contact (only an agents-only unread-count refresh, feature-flagged). So a view is observable only
   * (a) in the conversation JSON (Application API show, client API conversation: the public
   * _conversation.json.jbuilder renders agent_last_seen_at.to_i), and (b) in the payload of the
   * conversation's next event (Conversations::EventDataPresenter#push_timestamps, which every
   * conversation_* and message_* webhook carries). Without unread messages Chatwoot throttles the write
   * to once an hour (#should_update_last_seen?).
   */
  agentViews(conversation: Conversation, agentId: number): void {
    const now = Date.now();
    const unread = this.store
      .messagesOf(conversation.id)
      .some((m) => m.messageType === MESSAGE_TYPES.incoming && m.createdAtMs > (conversation.agentLastSeenAtMs ?? 0));
    const assignee = conversation.assigneeId === agentId;
    const stale = (t: number | null) => t === null || t < now - 3_600_000;
    if (!unread && !stale(conversation.agentLastSeenAtMs) && !(assignee && stale(conversation.assigneeLastSeenAtMs))) return;
    conversation.agentLastSeenAtMs = now;
    if (assignee) conversation.assigneeLastSeenAtMs = now;
    // Deliberately no sink.emit: update_columns dispatches nothing.
  }

  typing(conversation: Conversation, on: boolean, user: SenderRef, isPrivate = false): void {
    this.sink.emit({
      name: on ? 'conversation.typing_on' : 'conversation.typing_off',
      conversation,
      user,
      isPrivate,
    });
  }

  /** Opens a conversation for a contact_inbox; an optional first message goes out from the actor. */
  openConversation(input: {
    contactInboxId: number;
    status?: ConversationStatus;
    assigneeId?: number | null;
    customAttributes?: JsonObject;
    additionalAttributes?: JsonObject;
    firstMessage?: { content: string; sender: SenderRef | null; messageType: MessageTypeCode };
  }): Conversation {
    const ci = this.store.contactInboxes.get(input.contactInboxId);
    if (!ci) throw notFound();
    const assigneeId = input.assigneeId ?? null;
    if (assigneeId !== null && !this.store.agents.has(assigneeId)) throw unprocessable('Assignee not found');
    const conversation = this.store.addConversation({
      contactInbox: ci,
      status: input.status ?? 'open',
      assigneeId,
      customAttributes: input.customAttributes ?? {},
      additionalAttributes: input.additionalAttributes ?? {},
    });
    this.sink.emit({ name: 'conversation.created', conversation });
    if (input.firstMessage) this.createMessage(conversation, { ...input.firstMessage });
    return conversation;
  }
}

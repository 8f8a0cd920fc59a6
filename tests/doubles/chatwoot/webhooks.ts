// Outgoing webhooks: account webhooks (URL + subscribed event names) and an API inbox's webhook_url,
// which receives every event of its inbox. One POST per target, JSON body, 5 s timeout, no retries
// (Chatwoot v4.10.1). When a secret is configured the delivery is signed the newer way:
//   X-Chatwoot-Signature: sha256=hex(HMAC_SHA256(secret, "{timestamp}.{raw_body}"))
// with X-Chatwoot-Timestamp (epoch seconds) and X-Chatwoot-Delivery (a fresh UUID).
// Payloads are serialised when the event is emitted, so later mutations never leak into them.
import { createHmac, randomUUID } from 'node:crypto';
import type { ChatwootStore } from './store.ts';
import { messageHook, userHook } from './hook-payloads.ts';
import { conversationPush } from './serialize.ts';
import {
  MESSAGE_TYPES,
  type Changes,
  type Conversation,
  type DomainEvent,
  type JsonObject,
} from './types.ts';

export interface WebhookDelivery {
  url: string;
  event: string;
  body: string;
  signed: boolean;
  /** HTTP status, or null when the request failed (error says why). */
  status: number | null;
  error: string | null;
}

export function signWebhook(secret: string, timestamp: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

function changedAttributes(changes: Changes): JsonObject[] {
  return Object.entries(changes).map(([key, [previous, current]]) => ({
    [key]: { previous_value: previous, current_value: current },
  }));
}

interface Target {
  url: string;
  secret: string | null;
}

export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly store: ChatwootStore,
    private readonly timeoutMs = 5000,
  ) {}

  /** The webhook event name and payload for a domain event, or null when Chatwoot sends none. */
  private payloadFor(
    ev: DomainEvent,
  ): { event: string; payload: JsonObject; conversation: Conversation } | null {
    switch (ev.name) {
      case 'message.created':
      case 'message.updated': {
        // webhook_sendable?: activity lines never leave Chatwoot; private notes do (private: true).
        if (ev.message.messageType === MESSAGE_TYPES.activity) return null;
        const conversation = this.store.conversations.get(ev.message.conversationId);
        if (!conversation) return null;
        const event = ev.name === 'message.created' ? 'message_created' : 'message_updated';
        return { event, payload: messageHook(this.store, ev.message, event), conversation };
      }
      case 'conversation.created':
        return {
          event: 'conversation_created',
          payload: { ...conversationPush(this.store, ev.conversation), event: 'conversation_created' },
          conversation: ev.conversation,
        };
      case 'conversation.status_changed':
      case 'conversation.updated': {
        const event =
          ev.name === 'conversation.updated' ? 'conversation_updated' : 'conversation_status_changed';
        const payload = {
          ...conversationPush(this.store, ev.conversation),
          event,
          changed_attributes: changedAttributes(ev.changes),
        };
        return { event, payload, conversation: ev.conversation };
      }
      case 'conversation.typing_on':
      case 'conversation.typing_off': {
        const event =
          ev.name === 'conversation.typing_on' ? 'conversation_typing_on' : 'conversation_typing_off';
        const payload = {
          event,
          user: userHook(this.store, ev.user),
          conversation: conversationPush(this.store, ev.conversation),
          is_private: ev.isPrivate,
        };
        return { event, payload, conversation: ev.conversation };
      }
      case 'assignee.changed':
        return null; // reaches webhooks as conversation_updated (assignee_id) instead
    }
  }

  private targetsFor(event: string, conversation: Conversation): Target[] {
    const targets: Target[] = [];
    for (const hook of this.store.webhooks.values()) {
      if (hook.accountId === conversation.accountId && hook.subscriptions.includes(event))
        targets.push({ url: hook.url, secret: hook.secret });
    }
    const inbox = this.store.inboxes.get(conversation.inboxId);
    if (inbox?.channelType === 'Channel::Api' && inbox.webhookUrl)
      targets.push({ url: inbox.webhookUrl, secret: inbox.webhookSecret });
    return targets;
  }

  dispatch(ev: DomainEvent): void {
    const planned = this.payloadFor(ev);
    if (!planned) return;
    const body = JSON.stringify(planned.payload);
    for (const target of this.targetsFor(planned.event, planned.conversation)) {
      const p = this.deliver(target, planned.event, body).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  private async deliver(target: Target, event: string, body: string): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (target.secret) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      headers['x-chatwoot-timestamp'] = timestamp;
      headers['x-chatwoot-delivery'] = randomUUID();
      headers['x-chatwoot-signature'] = signWebhook(target.secret, timestamp, body);
    }
    const record: WebhookDelivery = {
      url: target.url,
      event,
      body,
      signed: target.secret !== null,
      status: null,
      error: null,
    };
    this.deliveries.push(record);
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      record.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      record.error = err instanceof Error ? err.message : String(err);
    }
  }

  /** Resolves when every delivery started so far has finished (or timed out). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }
}

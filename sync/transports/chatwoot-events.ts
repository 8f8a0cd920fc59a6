// R6.2: Chatwoot RoomChannel broadcasts (reference/chatwoot.md) as transport events. Private notes
// never become user-visible; message_type 0 is the contact (our user), 1 the agent (the specialist),
// 2 an activity (a system notice).
import { isJsonObject, type JsonObject } from '../model/json.ts';
import type { TransportEvent } from './transport.ts';

function idOf(v: unknown): string | null {
  return typeof v === 'number' || (typeof v === 'string' && v !== '') ? String(v) : null;
}

/** The conversation's display id: message pushes carry conversation_id, conversation pushes an object. */
function conversationOf(data: JsonObject): string | null {
  const direct = idOf(data.conversation_id);
  if (direct !== null) return direct;
  const c = data.conversation;
  return isJsonObject(c) ? (idOf(c.display_id) ?? idOf(c.id)) : null;
}

function directionOf(messageType: unknown): string {
  if (messageType === 0 || messageType === 'incoming') return 'user';
  if (messageType === 2 || messageType === 'activity') return 'system';
  return 'specialist';
}

function messageEvent(data: JsonObject): TransportEvent | null {
  if (data.private === true) return null;
  const id = idOf(data.id);
  const conv = conversationOf(data);
  if (id === null || conv === null) return null;
  const created = typeof data.created_at === 'number' ? data.created_at * 1000 : typeof data.created_at === 'string' ? Date.parse(data.created_at) : NaN;
  const correlation = idOf(data.echo_id) ?? idOf(data.source_id);
  return {
    kind: 'external-message',
    message: {
      chatwootMessageId: id,
      chatwootConversationId: conv,
      text: typeof data.content === 'string' ? data.content : '',
      direction: directionOf(data.message_type),
      correlationId: correlation,
      createdAtMs: Number.isFinite(created) ? created : 0,
      type: typeof data.content_type === 'string' && data.content_type !== 'text' ? data.content_type : 'text',
    },
  };
}

/** The spec's six events; anything else is ignored. */
export function chatwootEvents(received: unknown): TransportEvent[] {
  if (!isJsonObject(received) || typeof received.event !== 'string') return [];
  const data = isJsonObject(received.data) ? received.data : {};
  switch (received.event) {
    case 'message.created':
    case 'message.updated': {
      const e = messageEvent(data);
      return e ? [e, { kind: 'changed' }] : [{ kind: 'changed' }];
    }
    case 'conversation.created':
    case 'conversation.status_changed':
      return [{ kind: 'changed' }];
    case 'conversation.typing_on':
    case 'typing_on':
    case 'conversation.typing_off':
    case 'typing_off': {
      const conv = conversationOf(data);
      return conv === null ? [] : [{ kind: 'typing', chatwootConversationId: conv, on: received.event.endsWith('typing_on') }];
    }
    default:
      return [];
  }
}

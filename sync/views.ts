// The client view of a message as user-area.md section 3 names it, for the chat screen.
import type { JsonObject } from './model/json.ts';
import type { LocalMessage, MessageState, Sender } from './model/local-types.ts';
import { senderOf } from './merge/message.ts';

export interface MessageView {
  key: string;
  serverId: string | null;
  /** The server id once known, else the correlation id. */
  id: string;
  text: string;
  sender: Sender;
  /** Milliseconds since the epoch. */
  timestamp: number;
  type: string;
  payload: JsonObject | null;
  state: MessageState;
  direction: string;
  isOptimistic: boolean;
  clientCorrelationId: string | null;
  failed: boolean;
  /** The failure text for a failed send. */
  error: string | null;
  /** Written by the signed-in user (right-hand bubble). */
  isOwn: boolean;
}

export function messageView(m: LocalMessage, userId: string): MessageView {
  return {
    key: m.key,
    serverId: m.serverId,
    id: m.serverId ?? m.correlationId ?? m.key,
    text: m.text,
    sender: senderOf(m.direction),
    timestamp: Date.parse(m.createdAt.slice(0, 23) + 'Z'),
    type: m.type,
    payload: m.payload,
    state: m.state,
    direction: m.direction,
    isOptimistic: m.origin !== 'server',
    clientCorrelationId: m.correlationId,
    failed: m.state === 'failed',
    error: m.error,
    isOwn: m.direction === 'user' && (m.senderUserId === null || m.senderUserId === userId),
  };
}

/**
 * R9.5: what a `sending` message waits for, as its bubble says it: the network while offline, a new
 * sign-in while the session is gone (R9.2), else it is on its way. Failed messages show their error.
 */
export type PendingReason = 'network' | 'sign-in' | 'sending';

export function pendingReason(status: { connection: string; needsSignIn?: boolean }): PendingReason {
  if (status.needsSignIn) return 'sign-in';
  if (status.connection === 'offline') return 'network';
  return 'sending';
}

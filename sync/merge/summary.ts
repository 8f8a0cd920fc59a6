// R2.7/R2.8: what the conversation list shows for a conversation, derived from its stored messages
// and the caller's read cursor. Pure.
import type { LocalConversation, LocalLastMessage, LocalMessage } from '../model/local-types.ts';
import { laterOf } from '../model/ordering.ts';

export interface ConversationSummary {
  lastMessage: LocalLastMessage | null;
  unreadCount: number;
  sortAt: string;
}

/** R2.8: specialist messages after the cursor's message; all of them without a cursor. */
export function unreadCount(sortedMessages: LocalMessage[], cursorOrderKey: string): number {
  let n = 0;
  for (const m of sortedMessages) if (m.direction === 'specialist' && m.orderKey > cursorOrderKey) n++;
  return n;
}

export function summarize(
  conversation: Pick<LocalConversation, 'lastMessageAt' | 'createdAt'>,
  sortedMessages: LocalMessage[],
  cursorOrderKey: string,
): ConversationSummary {
  const last = sortedMessages[sortedMessages.length - 1];
  const lastMessage: LocalLastMessage | null = last
    ? { key: last.key, id: last.serverId, text: last.text, direction: last.direction, createdAt: last.createdAt }
    : null;
  return {
    lastMessage,
    unreadCount: unreadCount(sortedMessages, cursorOrderKey),
    sortAt: laterOf(conversation.lastMessageAt, lastMessage?.createdAt ?? null) ?? conversation.createdAt,
  };
}

export function sameSummary(c: LocalConversation, s: ConversationSummary): boolean {
  const a = c.lastMessage;
  const b = s.lastMessage;
  const sameLast = a === b || (a !== null && b !== null && a.key === b.key && a.id === b.id && a.text === b.text && a.createdAt === b.createdAt && a.direction === b.direction);
  return sameLast && c.unreadCount === s.unreadCount && c.sortAt === s.sortAt;
}

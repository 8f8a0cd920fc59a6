// R2.7/R2.8: what the conversation list shows for a conversation, derived from its stored messages
// and the caller's read cursor. Pure.
import type { FilesSummary, LocalConversation, LocalLastMessage, LocalMessage } from '../model/local-types.ts';
import type { JsonObject } from '../model/json.ts';
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

/**
 * R2.10: the files of a message's `payload.attachments` (each an object; an image is `file_type`
 * 'image'), or undefined when it has none. The same entries the bubble draws (send-with-attachments.ts
 * writes them, Chatwoot's rich messages carry them).
 */
export function filesSummary(payload: JsonObject | null): FilesSummary | undefined {
  const list = payload?.['attachments'];
  if (!Array.isArray(list)) return undefined;
  const entries = list.filter((a): a is JsonObject => a !== null && typeof a === 'object' && !Array.isArray(a));
  if (entries.length === 0) return undefined;
  const name = entries[0]!['name'];
  return {
    count: entries.length,
    images: entries.filter((a) => a['file_type'] === 'image').length,
    name: typeof name === 'string' && name !== '' ? name : null,
  };
}

/** The list's view of one message (R2.7, R2.10). */
export function lastMessageOf(m: LocalMessage): LocalLastMessage {
  const files = filesSummary(m.payload);
  return { key: m.key, id: m.serverId, text: m.text, direction: m.direction, createdAt: m.createdAt, ...(files ? { files } : {}) };
}

const sameFiles = (a: FilesSummary | undefined, b: FilesSummary | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.count === b.count && a.images === b.images && a.name === b.name);

export function summarize(
  conversation: Pick<LocalConversation, 'lastMessageAt' | 'createdAt'>,
  sortedMessages: LocalMessage[],
  cursorOrderKey: string,
): ConversationSummary {
  const last = sortedMessages[sortedMessages.length - 1];
  const lastMessage: LocalLastMessage | null = last ? lastMessageOf(last) : null;
  return {
    lastMessage,
    unreadCount: unreadCount(sortedMessages, cursorOrderKey),
    sortAt: laterOf(conversation.lastMessageAt, lastMessage?.createdAt ?? null) ?? conversation.createdAt,
  };
}

export function sameSummary(c: LocalConversation, s: ConversationSummary): boolean {
  const a = c.lastMessage;
  const b = s.lastMessage;
  const sameLast = a === b || (a !== null && b !== null && a.key === b.key && a.id === b.id && a.text === b.text && a.createdAt === b.createdAt && a.direction === b.direction && sameFiles(a.files, b.files));
  return sameLast && c.unreadCount === s.unreadCount && c.sortAt === s.sortAt;
}

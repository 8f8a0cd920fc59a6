// R4: the order of messages and conversations. Pure.
import type { LocalConversation, LocalMessage } from './local-types.ts';

/** Messages sort by created_at, then id (R4.1); an unsent copy uses its correlation id as id. */
export function orderKeyOf(createdAt: string, id: string): string {
  return `${createdAt} ${id}`;
}

export function compareMessages(a: Pick<LocalMessage, 'orderKey'>, b: Pick<LocalMessage, 'orderKey'>): number {
  return a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0;
}

/** Conversation list: newest activity first, ties by id for a stable order (R4.2). */
export function compareConversations(a: Pick<LocalConversation, 'sortAt' | 'id'>, b: Pick<LocalConversation, 'sortAt' | 'id'>): number {
  if (a.sortAt !== b.sortAt) return a.sortAt < b.sortAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The later of two optional normalized timestamps. */
export function laterOf(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a >= b ? a : b;
}

// Composer drafts, one per user and conversation, in sessionStorage: a reload keeps a half-typed
// message, another conversation has its own. Unavailable storage just means no draft is kept.
const key = (userId: string, conversationId: string) => `poradna.draft.${userId}.${conversationId}`;

export function readDraft(userId: string, conversationId: string): string {
  try {
    return sessionStorage.getItem(key(userId, conversationId)) ?? '';
  } catch {
    return '';
  }
}

export function writeDraft(userId: string, conversationId: string, text: string): void {
  try {
    if (text === '') sessionStorage.removeItem(key(userId, conversationId));
    else sessionStorage.setItem(key(userId, conversationId), text);
  } catch {
    /* storage unavailable: the draft lives only in the composer */
  }
}

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

/** True while any conversation holds a half-typed message (the service worker waits to update). */
export function hasAnyDraft(): boolean {
  try {
    for (let i = 0; i < sessionStorage.length; i++) {
      const k = sessionStorage.key(i);
      if (k?.startsWith('poradna.draft.') && (sessionStorage.getItem(k) ?? '') !== '') return true;
    }
  } catch {
    /* storage unavailable: no drafts are kept */
  }
  return false;
}

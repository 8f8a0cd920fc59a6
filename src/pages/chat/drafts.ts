// Composer drafts (issue 40, sync/SPEC.md R16): the text lives in the account's database (drafts
// table, saved on every change through the engine's saveDraft), so it survives closing the app and
// is dropped with the account's data. What stays here is this tab's view for the service worker's
// update gate: a reload now would interrupt typing in an open composer, or lose a keystroke whose
// save has not committed yet. A draft of a conversation not open is already safe in IndexedDB (the
// chat shows it again after any reload), so it no longer holds an update back for days.
// Files waiting in a composer's tray are kept in the database too (R16.5, use-attachment-draft.ts);
// only a file not kept yet (picked before the engine had loaded, or its save failed) lives in this
// page alone: a reload would drop it, so it holds an update back and a reload asks first.
const open = new Map<string, string>();
const trays = new Map<string, number>();
let saving = 0;

/** The open composer of `conversationId` now shows `text`. */
export function noteComposer(conversationId: string, text: string): void {
  if (text === '') open.delete(conversationId);
  else open.set(conversationId, text);
}

/** The composer of `conversationId` closed (its draft, if any, is in the database). */
export function forgetComposer(conversationId: string): void {
  open.delete(conversationId);
}

/** The browser's own 'Leave site?' prompt (the text needs none: it is a stored draft). */
const askBeforeLeaving = (e: BeforeUnloadEvent) => e.preventDefault();

/**
 * The tray of `conversationId` now holds `files` files that are not kept in the database yet. While
 * any tray holds such files, an update waits and a reload or a closed tab asks first.
 */
export function noteTray(conversationId: string, files: number): void {
  const before = trays.size;
  if (files === 0) trays.delete(conversationId);
  else trays.set(conversationId, files);
  if (typeof window === 'undefined') return;
  if (before === 0 && trays.size > 0) window.addEventListener('beforeunload', askBeforeLeaving);
  if (before > 0 && trays.size === 0) window.removeEventListener('beforeunload', askBeforeLeaving);
}

/** Counts a save until it settles (the update waits for it). */
export function trackSave(save: Promise<void>): Promise<void> {
  saving++;
  return save.finally(() => saving--);
}

/** True while an open composer in this tab holds text, a tray holds files not kept yet, or a draft's save is still running. */
export function hasAnyDraft(): boolean {
  return saving > 0 || open.size > 0 || trays.size > 0;
}

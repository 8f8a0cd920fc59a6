// Composer drafts (issue 40, sync/SPEC.md R16): the text lives in the account's database (drafts
// table, saved on every change through the engine's saveDraft), so it survives closing the app and
// is dropped with the account's data. What stays here is this tab's view for the service worker's
// update gate: a reload now would interrupt typing in an open composer, or lose a keystroke whose
// save has not committed yet. A draft of a conversation not open is already safe in IndexedDB (the
// chat shows it again after any reload), so it no longer holds an update back for days.
// Files waiting in a composer's tray are not stored anywhere (the picked bytes live in this page
// until their message is): a reload would drop them and their captions, so they hold it back too.
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
 * The tray of `conversationId` (open, or kept after its chat closed: attachments/kept-trays.ts) now
 * holds `files` files. While any tray holds files, a reload or a closed tab asks first.
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

/** True while an open composer in this tab holds text, a tray (open or kept) holds files, or a draft's save is still running. */
export function hasAnyDraft(): boolean {
  return saving > 0 || open.size > 0 || trays.size > 0;
}

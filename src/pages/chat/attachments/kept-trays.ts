// The tray of a chat the member left (another conversation opened beside the list, the list or
// another tab of the app on a phone): its files and their captions wait here, in this page only, and
// come back when that chat opens again, as its text does from the stored draft. They hold an update
// back and make a reload ask first while they wait (drafts.ts noteTray). Dropped, with their preview
// URLs, when the device's data for this user and account goes (SyncProvider: sign-out, another
// account impersonated).
import { noteTray } from '../drafts.ts';
import type { DraftAttachment } from './use-attachment-draft.ts';

const kept = new Map<string, DraftAttachment[]>();
/** Counts the drops: a tray opened before the last drop is not kept (its user's data went meanwhile). */
let generation = 0;

/** What a tray opening now remembers, to hand to keepTray when it closes. */
export function trayGeneration(): number {
  return generation;
}

/** Releases an item's preview URLs (the picked bytes themselves go with the last reference). */
export function revokeItem(item: DraftAttachment): void {
  if (item.thumbUrl) URL.revokeObjectURL(item.thumbUrl);
  if (item.fullUrl) URL.revokeObjectURL(item.fullUrl);
}

/**
 * The chat closed with these items in its tray (none: nothing is kept). `since`: trayGeneration() when
 * it opened; a drop after that (whichever of the two React ran first) means nothing is kept either.
 */
export function keepTray(conversationId: string, items: readonly DraftAttachment[], since: number): void {
  if (items.length === 0 || since !== generation) {
    items.forEach(revokeItem);
    kept.delete(conversationId);
    noteTray(conversationId, 0);
    return;
  }
  kept.set(conversationId, [...items]);
  noteTray(conversationId, items.length);
}

/** The chat opens again: its kept items, handed over (no longer kept here). */
export function takeTray(conversationId: string): DraftAttachment[] {
  const items = kept.get(conversationId) ?? [];
  kept.delete(conversationId);
  return items;
}

/**
 * A look-up that answered after its chat closed (R12.15's EXIF preview): the kept item takes it,
 * its caption kept. False when the item is not kept (sent, removed, or dropped): the caller revokes.
 */
export function updateKeptItem(conversationId: string, next: DraftAttachment): boolean {
  const items = kept.get(conversationId);
  const at = items?.findIndex((i) => i.id === next.id) ?? -1;
  if (!items || at < 0) return false;
  items[at] = { ...next, caption: items[at]!.caption };
  return true;
}

/** Every kept tray dropped (the user's device data went). */
export function dropKeptTrays(): void {
  generation++;
  for (const [conversationId, items] of kept) {
    items.forEach(revokeItem);
    noteTray(conversationId, 0);
  }
  kept.clear();
}

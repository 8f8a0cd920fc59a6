// The page's half of the chat list's paint snapshot (sw/list-snapshot.ts holds the invariants): what
// a frame of an unfiltered /app/chats at the top of the page saves. Removing the painted snapshot is
// snapshot-overlay.ts's; when to save and remove is use-list-snapshot.ts's.
import { LIST_SNAPSHOT_PATH } from '../../sw/config.ts';
import { SNAPSHOT_MAX_BYTES, writeListSnapshot, type ListSnapshot } from '../../sw/list-snapshot.ts';

/** Nodes that are not part of a steady frame: toasts. */
const TRANSIENT = '[data-sonner-toaster], section[aria-live][aria-label^="Notifications"]';

/**
 * The current frame of the list as a snapshot, or null when this frame must not be saved: another
 * address or a filter in it, scrolled away from the top, a dialog open, no built stylesheet (dev).
 */
export function captureListSnapshot(userId: string, doc: Document = document): ListSnapshot | null {
  const win = doc.defaultView;
  if (!win || win.location.pathname !== LIST_SNAPSHOT_PATH || win.location.search !== '') return null;
  if (win.scrollY > 1 || doc.querySelector('[role="dialog"], [role="alertdialog"]')) return null;
  const css = doc.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href]')?.getAttribute('href');
  const root = doc.getElementById('root');
  if (!css || !root || !root.querySelector('[role="listitem"]')) return null;
  const copy = root.cloneNode(true) as HTMLElement;
  for (const el of copy.querySelectorAll(TRANSIENT)) el.remove();
  // Nothing in the document may be found through the snapshot: no ids, test ids, links or tab stops.
  for (const el of copy.querySelectorAll('[id], [data-testid], [href], [tabindex]')) {
    for (const attr of ['id', 'data-testid', 'href', 'tabindex']) el.removeAttribute(attr);
  }
  const html = copy.innerHTML;
  if (html.length > SNAPSHOT_MAX_BYTES) return null;
  return { userId, css, html, savedAt: Date.now() };
}

export async function saveListSnapshot(userId: string): Promise<void> {
  const snap = captureListSnapshot(userId);
  if (snap) await writeListSnapshot(snap);
}

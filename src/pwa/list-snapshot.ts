// The page's half of the chat list's paint snapshot (sw/list-snapshot.ts holds the invariants): what
// a frame of an unfiltered /app/chats at the top of the page saves. Removing the painted snapshot is
// snapshot-overlay.ts's; when to save and remove is use-list-snapshot.ts's.
import {
  DESKTOP_QUERY,
  LIST_SNAPSHOT_PATH,
  SNAPSHOT_CSS_ATTR,
  SNAPSHOT_HOST_CLASS,
} from '../../sw/config.ts';
import {
  SNAPSHOT_MAX_BYTES,
  SNAPSHOT_MAX_RULES_BYTES,
  writeListSnapshot,
  type ListSnapshot,
} from '../../sw/list-snapshot.ts';
import { criticalCss, criticalCssInSlices } from './critical-css.ts';

/** Nodes that are not part of a steady frame: toasts. */
const TRANSIENT = '[data-sonner-toaster], section[aria-live][aria-label^="Notifications"]';

/**
 * The current frame of the list as a snapshot, or null when this frame must not be saved: another
 * address or a filter in it, scrolled away from the top, a dialog open, no built stylesheet (dev).
 */
export function captureListSnapshot(userId: string, doc: Document = document): ListSnapshot | null {
  const frame = captureFrame(userId, doc);
  if (!frame) return null;
  const input = frameRulesInput(doc, frame.snap.css, frame.copy);
  return withRules(frame.snap, input && criticalCss(...input));
}

/**
 * captureListSnapshot with the frame's rules judged in slices (critical-css.ts criticalCssInSlices),
 * so saving does not hold the main thread for one long task (issue 40). The frame itself is taken at
 * once, as a detached copy: what is saved is the frame of that moment, whatever renders meanwhile.
 */
export async function captureListSnapshotInSlices(userId: string, doc: Document = document): Promise<ListSnapshot | null> {
  const frame = captureFrame(userId, doc);
  if (!frame) return null;
  const input = frameRulesInput(doc, frame.snap.css, frame.copy);
  return withRules(frame.snap, input && (await criticalCssInSlices(...input)));
}

function withRules(snap: Omit<ListSnapshot, 'rules'>, rules: string | null): ListSnapshot {
  const kept = rules !== null && rules.length > 0 && rules.length <= SNAPSHOT_MAX_RULES_BYTES ? rules : null;
  return { ...snap, ...(kept !== null ? { rules: kept } : {}) };
}

/** The frame of this moment (a detached copy of #root, cleaned) and what is known of it now. */
function captureFrame(userId: string, doc: Document): { snap: Omit<ListSnapshot, 'rules'>; copy: HTMLElement } | null {
  const win = doc.defaultView;
  if (!win || win.location.pathname !== LIST_SNAPSHOT_PATH || win.location.search !== '') return null;
  if (win.scrollY > 1 || doc.querySelector('[role="dialog"], [role="alertdialog"]')) return null;
  const css = doc.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href]')?.getAttribute('href');
  const root = doc.getElementById('root');
  if (!css || !root || !root.querySelector('[role="listitem"]')) return null;
  const copy = root.cloneNode(true) as HTMLElement;
  for (const el of copy.querySelectorAll(TRANSIENT)) el.remove();
  // Rows the virtualizer keeps below the screen (its overscan) are not part of the frame: the
  // snapshot page would parse, style and lay them out for nothing.
  const rows = root.querySelectorAll('[role="listitem"]');
  const copies = copy.querySelectorAll('[role="listitem"]');
  if (rows.length === copies.length) {
    rows.forEach((row, i) => {
      if (row.getBoundingClientRect().top >= win.innerHeight) copies[i]!.remove();
    });
  }
  // Nothing in the document may be found through the snapshot: no ids, test ids, links or tab stops.
  for (const el of copy.querySelectorAll('[id], [data-testid], [href], [tabindex]')) {
    for (const attr of ['id', 'data-testid', 'href', 'tabindex']) el.removeAttribute(attr);
  }
  const html = copy.innerHTML;
  if (html.length > SNAPSHOT_MAX_BYTES) return null;
  const wide = win.matchMedia(DESKTOP_QUERY).matches;
  return { snap: { userId, css, html, wide, savedAt: Date.now() }, copy };
}

/**
 * What critical-css.ts judges to find the rules of the build's stylesheet that this frame needs, or
 * null when the stylesheet cannot be read; withRules drops a subset too large to be worth inlining:
 * the worker then inlines the whole sheet. The sheet is the link's (the app's own, or the one the
 * snapshot page's boot script added) or, on a page served with the whole stylesheet inline, that
 * inline copy.
 */
function frameRulesInput(doc: Document, href: string, frame: HTMLElement): [CSSStyleSheet, HTMLElement[], Element[]] | null {
  const link = Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).find(
    (l) => l.getAttribute('href') === href,
  );
  // The worker writes the whole sheet inline right before the link it disables (inlineStylesheet).
  const inline = link?.disabled ? link.previousElementSibling : null;
  const owner =
    link && !link.disabled
      ? link
      : inline instanceof HTMLStyleElement && !inline.hasAttribute(SNAPSHOT_CSS_ATTR)
        ? inline
        : null;
  const sheet = owner?.sheet ?? null;
  if (!sheet || !doc.body) return null;
  // The frame is judged inside copies of <html> and <body> around the worker's host element (which
  // carries a class of its own, sw/list-snapshot.ts), once in each theme: the snapshot is painted in
  // the theme shown when it is opened (public/theme.js sets <html class="dark"> on the snapshot page
  // before the body is parsed), not the one it was saved in (issue 40). So `html.dark` (the dark
  // palette, src/theme/dark.css) and Tailwind's `dark:` variant (`:where(.dark, .dark *)`, a
  // descendant of <html>) are kept whichever theme is on screen now.
  const themes = [false, true].map((dark) => {
    const html = doc.documentElement.cloneNode(false) as HTMLElement;
    html.classList.toggle('dark', dark);
    const body = doc.body.cloneNode(false) as HTMLElement;
    const host = doc.createElement('div');
    host.className = SNAPSHOT_HOST_CLASS;
    host.append(frame.cloneNode(true));
    body.append(host);
    html.append(body);
    return html;
  });
  // The live <html> too: only the document's own root is `:root` (the palette's variables).
  return [sheet, themes, [doc.documentElement, ...themes]];
}

/**
 * Saves the current frame. `inSlices`: the rules are judged in slices (the settled list's save), and
 * the frame is written only if `stillWanted()` says so once they are (a save made meanwhile, all at
 * once, is newer); without it all at once (a page being hidden may not get another task).
 */
export async function saveListSnapshot(
  userId: string,
  { inSlices = false, stillWanted = () => true }: { inSlices?: boolean; stillWanted?: () => boolean } = {},
): Promise<void> {
  const snap = inSlices ? await captureListSnapshotInSlices(userId) : captureListSnapshot(userId);
  if (snap && stillWanted()) await writeListSnapshot(snap);
}

// The chat list's paint snapshot: the last frame of /app/chats, saved by the page and painted by the
// service worker into the shell's HTML, so a warm open shows the list before any script has run.
// The live list replaces it as soon as it knows its rows (src/pwa/list-snapshot.ts).
// Invariants:
// - shown only to the user who saved it: the worker paints it only when the mirrored session
//   (sync/background/session-store.ts) names the same user; sign-out and a lost session delete the
//   snapshot with the session, in one transaction, and impersonation start or stop deletes it;
// - shown only for the build that drew it: its stylesheet must be the one the shell links, so class
//   names mean what they meant when it was saved;
// - never interactive and never read by assistive technology: the host is `inert` and `aria-hidden`,
//   and the saved HTML carries no ids or test ids, so nothing in the document can be confused with it;
// - a paint, not a state: nothing reads data from it, and it removes itself after SNAPSHOT_MAX_SHOW_MS
//   even if the app never starts;
// - painted before the app runs: with a snapshot the entry module starts two frames after
//   DOMContentLoaded (still after the deferred /env.js, as before) instead of straight after parsing,
//   so its evaluation cannot hold the frame that shows the snapshot;
// - no inline script: the loader is /snapshot-boot.js (snapshot-boot.ts), and the page keeps the
//   shell's security headers (CSP), so the snapshot page runs under the same policy as the app;
// - styled by its own rules first: a frame saved with the subset of the stylesheet it needs
//   (src/pwa/critical-css.ts) gets only that subset inline, so the page parses and styles a few
//   kilobytes before its first frame instead of every screen's rules; the boot script adds the whole
//   stylesheet (not render-blocking) and starts the app only once it has loaded. Without a subset
//   the whole stylesheet is inline, as before.
import {
  asMirroredSession,
  LIST_SNAPSHOT_KEY,
  SESSION_KEY,
  type MirroredSession,
} from '../sync/background/session-store.ts';
import { readKvMany, runKv } from '../sync/background/worker-db.ts';
import {
  DESKTOP_QUERY,
  SNAPSHOT_BOOT_PATH,
  SNAPSHOT_CSS_ATTR,
  SNAPSHOT_HOST_CLASS,
  SNAPSHOT_HOST_ID,
} from './config.ts';

export const SNAPSHOT_MAX_BYTES = 256 * 1024;
export const SNAPSHOT_MAX_SHOW_MS = 5000;

export interface ListSnapshot {
  userId: string;
  /** The href of the stylesheet the page had when it saved (the build's identity for this purpose). */
  css: string;
  /** The inner HTML of #root with ids and test ids removed. */
  html: string;
  /**
   * The rules of that stylesheet the frame needs (src/pwa/critical-css.ts), saved with it; absent in
   * frames saved before issue 19's row 1b work, or when the page could not read its stylesheet.
   */
  rules?: string;
  /**
   * Saved in the two-pane layout (DESKTOP_QUERY matched); absent in frames saved before. The frame is
   * painted only at a width of the same layout: the wrong one would jump to the other on start.
   */
  wide?: boolean;
  savedAt: number;
}

/** The largest rule subset inlined; a frame with more is painted with the whole stylesheet. */
export const SNAPSHOT_MAX_RULES_BYTES = 64 * 1024;

function isSnapshot(v: unknown): v is ListSnapshot {
  const s = v as Partial<ListSnapshot> | null | undefined;
  return (
    !!s &&
    typeof s.userId === 'string' &&
    typeof s.css === 'string' &&
    typeof s.html === 'string' &&
    typeof s.savedAt === 'number' &&
    (s.rules === undefined || typeof s.rules === 'string')
  );
}

/** The snapshot and the mirrored session in one read (a navigation to the list needs both, at once). */
export async function readListSnapshotAndSession(): Promise<[ListSnapshot | null, MirroredSession | null]> {
  const [snap, session] = await readKvMany([LIST_SNAPSHOT_KEY, SESSION_KEY]);
  return [isSnapshot(snap) ? snap : null, asMirroredSession(session)];
}

export async function writeListSnapshot(s: ListSnapshot): Promise<void> {
  await runKv('readwrite', (store) => store.put(s, LIST_SNAPSHOT_KEY));
}

export async function deleteListSnapshot(): Promise<void> {
  await runKv('readwrite', (store) => store.delete(LIST_SNAPSHOT_KEY));
}

/**
 * The shell's HTML with the snapshot painted over the page, or null when it must not be shown
 * (no snapshot, another user, another build, no session, too large, or a shell without a body).
 */
export function shellWithSnapshot(
  shell: string,
  snap: ListSnapshot | null,
  session: MirroredSession | null,
  cssText?: string | null,
): string | null {
  if (!snap || !session || snap.userId !== session.userId) return null;
  if (snap.html.length > SNAPSHOT_MAX_BYTES || snap.html.length === 0) return null;
  if (!snap.css || !shell.includes(`href="${snap.css}"`)) return null;
  const rules = snapshotRules(snap);
  const subset = rules !== null ? inlineStylesheet(shell, snap.css, rules, { subset: true }) : shell;
  const shellHtml =
    subset !== shell
      ? deferEntryModule(subset, snap.css)
      : inlineStylesheet(deferEntryModule(shell), snap.css, cssText);
  const body = /<body[^>]*>/i.exec(shellHtml);
  if (!body) return null;
  const at = body.index + body[0].length;
  // The removal timer is the boot script's (snapshot-boot.ts): the page runs no inline script.
  const host =
    `<div id="${SNAPSHOT_HOST_ID}" aria-hidden="true" inert class="${SNAPSHOT_HOST_CLASS}" ` +
    `style="position:fixed;inset:0;z-index:60;overflow:hidden;pointer-events:none">${layoutGuard(snap)}${snap.html}</div>`;
  return shellHtml.slice(0, at) + host + shellHtml.slice(at);
}

/**
 * A rule hiding the frame at a width of the other layout (a phone's list on a wide screen, or the two
 * panes on a narrow one). CSS, not script: the first paint happens before any script runs.
 */
function layoutGuard({ wide }: Pick<ListSnapshot, 'wide'>): string {
  if (wide === undefined) return '';
  const other = wide ? `not all and ${DESKTOP_QUERY}` : DESKTOP_QUERY;
  return `<style>@media ${other}{#${SNAPSHOT_HOST_ID}{display:none}}</style>`;
}

/** The frame's own rules when they can be inlined safely, else null (the whole stylesheet is used). */
export function snapshotRules({ rules }: Pick<ListSnapshot, 'rules'>): string | null {
  if (!rules || rules.length > SNAPSHOT_MAX_RULES_BYTES || CLOSES_STYLE.test(rules)) return null;
  return rules;
}

const CLOSES_STYLE = /<\/style/i;

/**
 * The shell with its stylesheet's rules inline, so the snapshot's first paint does not wait for a
 * second answer of the worker (a render-blocking request) after the document's. The link stays,
 * `disabled` (never applied): the page still names the build's stylesheet for its next save
 * (src/pwa/list-snapshot.ts), and the bundler's preload of a lazy chunk, which appends the chunk's
 * stylesheets that no link in the document names, and waits for them, finds it there.
 * With `subset`, the text is only the frame's rules (`<style data-snapshot-css>`) and the link goes:
 * Chromium's preload scanner fetches even a disabled stylesheet link, a request during the parse
 * that the snapshot's first frame waits behind. The boot script (snapshot-boot.ts, `data-stylesheet`)
 * then adds the whole stylesheet, not render-blocking, before the app starts.
 * Kept as it was when the text is unknown or could end the element early.
 */
export function inlineStylesheet(
  shell: string,
  href: string,
  cssText: string | null | undefined,
  opts: { subset?: boolean } = {},
): string {
  if (!cssText || CLOSES_STYLE.test(cssText)) return shell;
  const at = shell.indexOf(`href="${href}"`);
  const start = shell.lastIndexOf('<link ', at);
  const end = shell.indexOf('>', at);
  if (at < 0 || start < 0 || end < 0 || !/^<link rel="stylesheet"[^<>]*$/.test(shell.slice(start, end)))
    return shell;
  if (opts.subset)
    return `${shell.slice(0, start)}<style ${SNAPSHOT_CSS_ATTR}>${cssText}</style>${shell.slice(end + 1)}`;
  return `${shell.slice(0, start)}<style>${cssText}</style>${shell.slice(start, end)} disabled>${shell.slice(end + 1)}`;
}

/** Entry module tags as Vite writes them: `<script type="module" crossorigin src="…"></script>`. */
const ENTRY_MODULE = /<script type="module"( crossorigin)? src="([^"]+)"><\/script>/g;
/** The entry's preloads as Vite writes them: `<link rel="modulepreload" crossorigin href="…">`. */
const MODULE_PRELOAD = /<link rel="modulepreload"(?: crossorigin)? href="([^"]+)">[ \t]*\n?/g;

/**
 * The shell with its entry module started by the boot script (snapshot-boot.ts) two frames after
 * DOMContentLoaded (or after 100 ms, for a tab that renders no frames). Tags are only moved, never
 * before the body they follow. The entry's module preloads move with it (`data-preload`, started by
 * the boot script with the entry): requested from the head they cost the snapshot's
 * parse their fetches' start, for a module that is not evaluated before the frame anyway. With
 * `stylesheet` (a page with only the frame's rules inline) the boot script also adds that sheet. The boot
 * script is an external file, not inline, so the app's Content-Security-Policy (script-src 'self')
 * holds for this page too.
 */
export function deferEntryModule(shell: string, stylesheet?: string): string {
  if (!ENTRY_MODULE.test(shell)) return shell;
  ENTRY_MODULE.lastIndex = 0;
  const preloads: string[] = [];
  const withoutPreloads = shell.replace(MODULE_PRELOAD, (_tag, href: string) => {
    preloads.push(href);
    return '';
  });
  const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return withoutPreloads.replace(ENTRY_MODULE, (_tag, crossorigin: string | undefined, src: string) => {
    return (
      `<script defer src="${SNAPSHOT_BOOT_PATH}" data-entry="${attr(src)}"${crossorigin ? ' data-crossorigin' : ''} ` +
      `${preloads.length > 0 ? `data-preload="${attr(preloads.join(' '))}" ` : ''}` +
      `${stylesheet ? `data-stylesheet="${attr(stylesheet)}" ` : ''}` +
      `data-host="${SNAPSHOT_HOST_ID}" data-max-show="${SNAPSHOT_MAX_SHOW_MS}"></script>`
    );
  });
}

/** The headers of the precached shell that the snapshot page keeps (its security policy). */
export const SHELL_HEADERS_KEPT = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
];

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
//   shell's security headers (CSP), so the snapshot page runs under the same policy as the app.
import { asMirroredSession, LIST_SNAPSHOT_KEY, SESSION_KEY, type MirroredSession } from '../sync/background/session-store.ts';
import { readKvMany, runKv } from '../sync/background/worker-db.ts';
import { SNAPSHOT_BOOT_PATH, SNAPSHOT_HOST_ID } from './config.ts';

export const SNAPSHOT_MAX_BYTES = 256 * 1024;
export const SNAPSHOT_MAX_SHOW_MS = 5000;

export interface ListSnapshot {
  userId: string;
  /** The href of the stylesheet the page had when it saved (the build's identity for this purpose). */
  css: string;
  /** The inner HTML of #root with ids and test ids removed. */
  html: string;
  savedAt: number;
}

function isSnapshot(v: unknown): v is ListSnapshot {
  const s = v as Partial<ListSnapshot> | null | undefined;
  return !!s && typeof s.userId === 'string' && typeof s.css === 'string' && typeof s.html === 'string' && typeof s.savedAt === 'number';
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
export function shellWithSnapshot(shell: string, snap: ListSnapshot | null, session: MirroredSession | null, cssText?: string | null): string | null {
  if (!snap || !session || snap.userId !== session.userId) return null;
  if (snap.html.length > SNAPSHOT_MAX_BYTES || snap.html.length === 0) return null;
  if (!snap.css || !shell.includes(`href="${snap.css}"`)) return null;
  const shellHtml = inlineStylesheet(deferEntryModule(shell), snap.css, cssText);
  const body = /<body[^>]*>/i.exec(shellHtml);
  if (!body) return null;
  const at = body.index + body[0].length;
  // The removal timer is the boot script's (snapshot-boot.ts): the page runs no inline script.
  const host =
    `<div id="${SNAPSHOT_HOST_ID}" aria-hidden="true" inert class="bg-slate-50" ` +
    `style="position:fixed;inset:0;z-index:60;overflow:hidden;pointer-events:none">${snap.html}</div>`;
  return shellHtml.slice(0, at) + host + shellHtml.slice(at);
}

/**
 * The shell with its stylesheet's rules inline, so the snapshot's first paint does not wait for a
 * second answer of the worker (a render-blocking request) after the document's. The link stays,
 * `disabled` (never fetched, never applied): the page still names the build's stylesheet for its
 * next save (src/pwa/list-snapshot.ts), and the bundler's preload of a lazy chunk, which appends the
 * chunk's stylesheets that no link in the document names, and waits for them, finds it there.
 * Kept as it was when the text is unknown or could end the element early.
 */
export function inlineStylesheet(shell: string, href: string, cssText: string | null | undefined): string {
  if (!cssText || /<\/style/i.test(cssText)) return shell;
  const at = shell.indexOf(`href="${href}"`);
  const start = shell.lastIndexOf('<link ', at);
  const end = shell.indexOf('>', at);
  if (at < 0 || start < 0 || end < 0 || !/^<link rel="stylesheet"[^<>]*$/.test(shell.slice(start, end))) return shell;
  return `${shell.slice(0, start)}<style>${cssText}</style>${shell.slice(start, end)} disabled>${shell.slice(end + 1)}`;
}

/** Entry module tags as Vite writes them: `<script type="module" crossorigin src="…"></script>`. */
const ENTRY_MODULE = /<script type="module"( crossorigin)? src="([^"]+)"><\/script>/g;

/**
 * The shell with its entry module started by the boot script (snapshot-boot.ts) two frames after
 * DOMContentLoaded (or after 100 ms, for a tab that renders no frames). Tags are only moved, never
 * before the body they follow. The boot script is an external file, not inline, so the app's
 * Content-Security-Policy (script-src 'self') holds for this page too.
 */
export function deferEntryModule(shell: string): string {
  return shell.replace(ENTRY_MODULE, (_tag, crossorigin: string | undefined, src: string) => {
    const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    return (
      `<script defer src="${SNAPSHOT_BOOT_PATH}" data-entry="${attr(src)}"${crossorigin ? ' data-crossorigin' : ''} ` +
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

// Constants shared by the service worker and the page that registers it.
// /storage/v1: a file card opens a stored file in a new tab; that navigation must reach the storage
// API, never be answered with the app's shell.
export const API_PREFIXES = [
  '/auth/v1',
  '/rest/v1',
  '/functions/v1',
  '/realtime/v1',
  '/storage/v1',
  '/_dev',
  '/env.js',
  '/sw.js',
];
export const MEDIA_CACHE = 'poradna-media';
export const MEDIA_MAX_ENTRIES = 300;
export const MEDIA_MAX_AGE_S = 30 * 24 * 3600;
export const SW_MESSAGES = { activate: 'poradna:activate' } as const;
/** Admin chunks stay out of the precache: the admin area is an online tool. */
export const PRECACHE_IGNORE = ['**/admin-*.js', '**/*.map', 'samples/**', 'avatars/**'];
/** The one address whose navigation may get the chat list's paint snapshot (list-snapshot.ts). */
export const LIST_SNAPSHOT_PATH = '/app/chats';
/** The element the snapshot is painted in; the page removes it once the live list knows its rows. */
export const SNAPSHOT_HOST_ID = 'list-snapshot';
/** The snapshot page's loader (snapshot-boot.ts, built to this path and precached). */
export const SNAPSHOT_BOOT_PATH = '/snapshot-boot.js';
/** The class of that element (its opaque background); the page's rule subset must cover it. */
export const SNAPSHOT_HOST_CLASS = 'bg-slate-50';
/**
 * From this width the chats show two panes (issue 40; src/lib/use-media.ts). A list frame saved on one
 * side of it is not painted on the other (list-snapshot.ts): a tablet turned, a window resized.
 */
export const DESKTOP_QUERY = '(min-width: 1024px)';
/** Marks the inline `<style>` holding only the frame's own rules (the boot script then loads the whole sheet). */
export const SNAPSHOT_CSS_ATTR = 'data-snapshot-css';

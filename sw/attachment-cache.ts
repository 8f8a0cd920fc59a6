// The attachments the app has shown, kept by the service worker so they open offline (issue 38).
// A stored attachment is shown through a signed URL (`…/storage/v1/object/sign/<bucket>/<path>?token=…`,
// supabase/storage src/http/routes/object/getSignedObject.ts) whose token changes with every signing,
// so the cache is keyed by the object's address WITHOUT the query: the same object is one entry
// whatever token fetched it, and an offline page that cannot sign asks for the bare address
// (`unsignedObjectUrl`) and gets it from here. Invariants:
//   * Only images are kept (the bubbles' thumbnails and the lightbox's full images); files open online.
//   * One cache per user (`poradna-attachments-<user id>`, the user of the session the page mirrored
//     for the worker); without a mirrored session nothing is read or written. Sign-out and a lost
//     session delete every attachment cache (src/auth/session-mirror.ts), so the next person on the
//     device never gets them.
//   * Bounded: at most ATTACHMENT_CACHE_MAX_BYTES and ATTACHMENT_CACHE_MAX_ENTRIES; the oldest entries
//     (Cache Storage keeps insertion order) go first. Object paths name a fresh attachment id each
//     time (R12.4), so an entry never goes stale: cache-first is exact, not a guess.
//   * A miss is fetched with CORS (the storage API answers `*`; hosted Supabase is another origin), so
//     the response is readable, its size known, and no opaque padding fills the quota.
// Pure of the worker's globals: sw.ts hands in the session reader, the CacheStorage and fetch.

export const ATTACHMENT_CACHE_PREFIX = 'poradna-attachments-';
export const ATTACHMENT_CACHE_MAX_BYTES = 100 * 1024 * 1024;
export const ATTACHMENT_CACHE_MAX_ENTRIES = 500;
const SIGNED_PATH = '/storage/v1/object/sign/';

/** The cache key of a signed storage URL: its origin and path, no query; null for any other URL. */
export function attachmentCacheKey(url: string | URL): string | null {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (!u.pathname.startsWith(SIGNED_PATH) || u.pathname.length === SIGNED_PATH.length) return null;
  return `${u.origin}${u.pathname}`;
}

/**
 * The address a page asks for when it cannot sign (offline): the signed URL's own form without a
 * token, encoded as storage-js encodes a signed URL (`encodeURI`), so it has the same cache key.
 * The server refuses it (400, no token); only the worker's cache answers it.
 */
export function unsignedObjectUrl(supabaseUrl: string, bucket: string, path: string): string {
  return encodeURI(`${supabaseUrl.replace(/\/+$/, '')}${SIGNED_PATH}${bucket}/${path}`);
}

export const attachmentCacheName = (userId: string) => `${ATTACHMENT_CACHE_PREFIX}${userId}`;

/** Whether the worker takes this request: a GET of a signed object that is no navigation and no range. */
export function isAttachmentRequest(request: Pick<Request, 'method' | 'mode' | 'url' | 'headers'>): boolean {
  return request.method === 'GET' && request.mode !== 'navigate' && !request.headers.has('range') && attachmentCacheKey(request.url) !== null;
}

export interface AttachmentCacheDeps {
  /** The user whose session the page mirrored, and the backend's URL; null when signed out. */
  session: () => Promise<{ userId: string; url: string } | null>;
  caches: CacheStorage;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  maxBytes?: number;
  maxEntries?: number;
}

const sizeOf = (res: Response): number => Number(res.headers.get('content-length') ?? '0') || 0;

/** Cache-first by object address (see the head of this file). Never throws on a cache failure. */
export async function answerAttachment(request: Request, deps: AttachmentCacheDeps): Promise<Response> {
  const key = attachmentCacheKey(request.url);
  const session = await deps.session().catch(() => null);
  // Only the backend of the mirrored session, only for a signed-in user.
  if (!key || !session || new URL(session.url).origin !== new URL(key).origin) return deps.fetch(request.url, { mode: 'cors', credentials: 'omit' });
  const cache = await deps.caches.open(attachmentCacheName(session.userId));
  const hit = await cache.match(key);
  if (hit) return hit;
  const res = await deps.fetch(request.url, { mode: 'cors', credentials: 'omit' });
  const maxBytes = deps.maxBytes ?? ATTACHMENT_CACHE_MAX_BYTES;
  if (res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('image/') && sizeOf(res) <= maxBytes) {
    try {
      await cache.put(key, res.clone());
      await trimAttachmentCache(cache, maxBytes, deps.maxEntries ?? ATTACHMENT_CACHE_MAX_ENTRIES);
    } catch (err) {
      console.warn('attachment cache:', err); // a full quota: the image is shown, just not kept
    }
  }
  return res;
}

/** Drops the oldest entries until the cache holds at most `maxBytes` and `maxEntries`. */
export async function trimAttachmentCache(cache: Cache, maxBytes: number, maxEntries: number): Promise<void> {
  const keys = await cache.keys();
  const sizes = await Promise.all(keys.map(async (k) => sizeOf((await cache.match(k)) ?? new Response(null))));
  let total = sizes.reduce((a, b) => a + b, 0);
  let count = keys.length;
  for (let i = 0; i < keys.length && (total > maxBytes || count > maxEntries); i++) {
    await cache.delete(keys[i]!);
    total -= sizes[i]!;
    count--;
  }
}

/** Deletes every user's attachment cache (sign-out, a lost session). */
export async function deleteAttachmentCaches(storage: CacheStorage | undefined = globalThis.caches): Promise<void> {
  if (!storage) return;
  const names = await storage.keys();
  await Promise.all(names.filter((n) => n.startsWith(ATTACHMENT_CACHE_PREFIX)).map((n) => storage.delete(n)));
}

/// <reference lib="webworker" />
// The service worker (registered at /sw.js, scope /): precaches the app shell and the chunks the user
// area needs offline (the admin area is online-only and not precached), serves navigations from the
// shell when the network is gone, caches avatars, images and files cache-first with expiry and a size
// cap, keeps the attachments it showed by object address (attachment-cache.ts), and keeps /env.js network-first so an offline cold start still knows its backend.
// Updates: a new version waits until the page says it may activate (see src/pwa/), so a queued
// message or a half-typed draft is never lost to a reload.
// Background Sync: the 'poradna-outbox' event flushes the outbox with the engine's own push code
// when no tab leads it (sync/background/flush.ts; the rules are in sw/README.md).
// Web Push: push, notificationclick and pushsubscriptionchange (push.ts, push-resubscribe.ts; rules
// R11.x in sync/SPEC.md), all working with no page open.
import { cleanupOutdatedCaches, createHandlerBoundToURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { backgroundFlush } from '../sync/background/flush.ts';
import { OUTBOX_SYNC_TAG } from '../sync/background/tag.ts';
import { readMirroredSession } from '../sync/background/session-store.ts';
import { API_PREFIXES, LIST_SNAPSHOT_PATH, MEDIA_CACHE, MEDIA_MAX_AGE_S, MEDIA_MAX_ENTRIES, SW_MESSAGES } from './config.ts';
import { answerAttachment, isAttachmentRequest } from './attachment-cache.ts';
import { readListSnapshotAndSession, SHELL_HEADERS_KEPT, shellWithSnapshot, snapshotRules } from './list-snapshot.ts';
import { handleClick, handlePush, inDeliveryOrder, type WindowLike } from './push.ts';
import { fetchRpc, resubscribe } from './push-resubscribe.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: { url: string; revision: string | null }[] };

/** Background Sync's event (not in TypeScript's webworker lib). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Navigations (the SPA's routes) come from the precached shell; API and dev paths never do.
// /app/chats gets the shell with the list's last frame painted in (list-snapshot.ts) when there is one.
const shell = createHandlerBoundToURL('/index.html');

/**
 * How long a navigation to the list waits for the snapshot and session in IndexedDB. Past it the
 * plain shell is served: a paint is an optimisation, and an IndexedDB open that stalls (queued behind
 * another connection's upgrade or deletion, or a busy backing store) must never leave the navigation
 * unanswered — a page whose navigation never answers waits forever.
 */
const SNAPSHOT_READ_DEADLINE_MS = 1000;

function withinDeadline<T>(p: Promise<T>, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), SNAPSHOT_READ_DEADLINE_MS);
    p.then(
      (v) => resolve(v),
      () => resolve(fallback),
    ).finally(() => clearTimeout(timer));
  });
}

interface Shell {
  html: string;
  headers: Headers;
}

/**
 * The precached shell's text and the headers the snapshot page keeps, read once per worker: the
 * precache of a worker version never changes (a new build is a new worker), so it cannot go stale.
 * A failed read is not kept.
 */
let shellText: Promise<Shell | null> | null = null;

function precachedShell(): Promise<Shell | null> {
  shellText ??= (async () => {
    const res = await matchPrecache('/index.html');
    if (!res) return null;
    // The shell's security headers (CSP, frame-ancestors…) hold for the snapshot page too.
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' });
    for (const name of SHELL_HEADERS_KEPT) {
      const v = res.headers.get(name);
      if (v !== null) headers.set(name, v);
    }
    return { html: await res.text(), headers };
  })().then((s) => {
    if (!s) shellText = null;
    return s;
  });
  return shellText;
}

/**
 * The precached stylesheet's text, read once per worker and href (a build's stylesheet never changes
 * under its hashed name). Null when it is not precached; a failed read is not kept.
 */
const cssTexts = new Map<string, Promise<string | null>>();

function precachedCss(href: string): Promise<string | null> {
  let text = cssTexts.get(href);
  if (!text) {
    text = matchPrecache(href)
      .then((res) => (res?.ok ? res.text() : null))
      .catch(() => null);
    cssTexts.set(href, text);
    void text.then((t) => t === null && cssTexts.delete(href));
  }
  return text;
}

async function shellWithListSnapshot(): Promise<Response | null> {
  const [shellCopy, [snap, session]] = await Promise.all([
    precachedShell().catch(() => null),
    withinDeadline(readListSnapshotAndSession(), [null, null] as const),
  ]);
  if (!shellCopy || !snap) return null;
  // The stylesheet inline: the snapshot's first paint then waits for no second answer of this worker.
  // A frame saved with its own rules needs only those (shellWithSnapshot); the whole text is read only
  // when the frame has none.
  const html = shellWithSnapshot(shellCopy.html, snap, session, snapshotRules(snap) !== null ? null : await precachedCss(snap.css));
  if (html === null) return null;
  return new Response(html, { headers: new Headers(shellCopy.headers) });
}

registerRoute(
  new NavigationRoute(
    async (options) => {
      const { pathname, search } = options.url;
      if (pathname === LIST_SNAPSHOT_PATH && search === '') {
        const withSnapshot = await shellWithListSnapshot().catch(() => null);
        if (withSnapshot) return withSnapshot;
      }
      return shell(options);
    },
    { denylist: API_PREFIXES.map((p) => new RegExp(`^${p}`)) },
  ),
);

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/env.js',
  new NetworkFirst({ cacheName: 'poradna-env', networkTimeoutSeconds: 3 }),
);

// Attachments shown through signed URLs, cached by object address (attachment-cache.ts). Before the
// media route: a signed URL must never land in the shared media cache under its one-hour token.
registerRoute(
  ({ request }) => isAttachmentRequest(request),
  ({ request }) =>
    answerAttachment(request, {
      session: readMirroredSession,
      caches: self.caches,
      fetch: (input, init) => fetch(input, init),
    }),
);

registerRoute(
  ({ request, url }) =>
    request.method === 'GET' &&
    (request.destination === 'image' || url.pathname.startsWith('/avatars/') || url.pathname.startsWith('/samples/')),
  new CacheFirst({
    cacheName: MEDIA_CACHE,
    // workbox's plugin classes predate exactOptionalPropertyTypes; their shapes are the plugin API.
    plugins: [
      new CacheableResponsePlugin({ statuses: [0, 200] }) as WorkboxPlugin,
      new ExpirationPlugin({ maxEntries: MEDIA_MAX_ENTRIES, maxAgeSeconds: MEDIA_MAX_AGE_S, purgeOnQuotaError: true }) as WorkboxPlugin,
    ],
  }),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === SW_MESSAGES.activate) void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

(self as EventTarget).addEventListener('sync', (e) => {
  const event = e as SyncEvent;
  if (event.tag !== OUTBOX_SYNC_TAG) return;
  // A rejection (entries still waiting) makes the browser retry the event later. Each event's start
  // and outcome go to the worker's console: the only trace of work no page watches.
  const started = Date.now();
  console.debug('Background Sync: started');
  event.waitUntil(
    backgroundFlush(navigator.locks).then(
      (outcome) => console.info(`Background Sync: ${outcome} in ${Date.now() - started} ms`),
      (err: unknown) => {
        console.warn(`Background Sync: failed in ${Date.now() - started} ms:`, err);
        throw err;
      },
    ),
  );
});

/** Every window of this origin, also those this worker does not control yet. */
const windows = async (): Promise<readonly WindowLike[]> => self.clients.matchAll({ type: 'window', includeUncontrolled: true });

const pushInOrder = inDeliveryOrder();

self.addEventListener('push', (event) => {
  let raw: unknown;
  try {
    raw = event.data?.json() ?? null;
  } catch {
    raw = null; // not JSON: handlePush ignores it
  }
  // One line as it starts and one as it ends, as Background Sync writes: a journey's failure (or a
  // developer's worker console) then tells a push that never reached the worker from one that did and
  // showed nothing (push-notifications.e2e once saw two delivered pushes and no notification, and
  // nothing said which).
  const started = Date.now();
  console.info('Push: started');
  event.waitUntil(
    pushInOrder(() =>
      handlePush(raw, {
        origin: self.location.origin,
        windows,
        show: (title, options) => self.registration.showNotification(title, options),
        badge: self.navigator,
      }),
    ).then(
      (outcome) => console.info(`Push: ${outcome} in ${Date.now() - started} ms`),
      (err: unknown) => {
        console.warn(`Push: failed in ${Date.now() - started} ms:`, err);
        throw err;
      },
    ),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(handleClick(event.notification.data, { origin: self.location.origin, windows, open: (url) => self.clients.openWindow(url) }));
});

/** pushsubscriptionchange (not in TypeScript's webworker lib). */
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  readonly oldSubscription: PushSubscription | null;
  readonly newSubscription: PushSubscription | null;
}

(self as EventTarget).addEventListener('pushsubscriptionchange', (e) => {
  const event = e as PushSubscriptionChangeEvent;
  event.waitUntil(
    resubscribe(event.oldSubscription, event.newSubscription, {
      session: readMirroredSession,
      now: () => Date.now(),
      subscribe: (applicationServerKey) => self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }),
      rpc: fetchRpc,
      userAgent: self.navigator.userAgent,
    }).catch((err: unknown) => console.warn('pushsubscriptionchange:', err)),
  );
});

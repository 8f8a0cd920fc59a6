// The service worker's Web Push handlers (issue 20), written against injected parts so the unit
// tests drive the same code the worker runs (tests/unit/pwa/sw-push.test.ts):
// - push: a 'message' payload shows one notification per conversation (tag 'conversation:<id>',
//   renotify false, so a burst collapses into one) unless a visible window is on that chat (the
//   server filters too, R10.x; this is the last guard, R11.4), and sets the app badge to `unread`
//   (cleared at 0). A 'badge' payload only sets the badge.
// - notificationclick: focuses a window of ours and navigates it to the chat, or opens one.
// - pushsubscriptionchange: subscribes again with the same VAPID key and tells the server
//   (push_subscribe; the old endpoint push_unsubscribe), with the page's mirrored session.
// Invariant: a push never opens or navigates to anything but a same-origin path under /app/ (the
// payload is the server's, but a notification must not become a way out of the app).

export interface MessagePush {
  type: 'message';
  conversationId: string;
  messageId: string | null;
  title: string;
  body: string;
  icon: string | null;
  tag: string;
  url: string;
  unread: number | null;
}
export interface BadgePush {
  type: 'badge';
  unread: number;
}
export type PushPayload = MessagePush | BadgePush;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null);
const UUIDISH = /^[0-9a-zA-Z-]{1,64}$/;

/** A path the app may open: same origin, under /app/, no scheme or host tricks ('//x', '/\\x'). */
export function safeAppPath(url: unknown, origin: string): string | null {
  const s = str(url);
  if (!s || !s.startsWith('/') || s.startsWith('//') || s.includes('\\')) return null;
  try {
    const u = new URL(s, origin);
    if (u.origin !== origin || !u.pathname.startsWith('/app/')) return null;
    return u.pathname + u.search + u.hash;
  } catch {
    return null;
  }
}

/** The payload as the worker accepts it; null for anything it does not understand. */
export function parsePushPayload(data: unknown, origin: string): PushPayload | null {
  if (!data || typeof data !== 'object') return null;
  const o = data as Record<string, unknown>;
  if (o.type === 'badge') {
    const unread = count(o.unread);
    return unread === null ? null : { type: 'badge', unread };
  }
  if (o.type !== 'message') return null;
  const conversationId = str(o.conversationId);
  if (!conversationId || !UUIDISH.test(conversationId)) return null;
  const chatPath = `/app/chats/${conversationId}`;
  return {
    type: 'message',
    conversationId,
    messageId: str(o.messageId),
    title: str(o.title)?.slice(0, 120) || 'Poradňa',
    body: str(o.body)?.slice(0, 500) ?? '',
    icon: safeIcon(o.icon, origin),
    tag: `conversation:${conversationId}`,
    url: safeAppPath(o.url, origin) ?? chatPath,
    unread: count(o.unread),
  };
}

function safeIcon(v: unknown, origin: string): string | null {
  const s = str(v);
  if (!s) return null;
  try {
    const u = new URL(s, origin);
    return u.protocol === 'https:' || u.origin === origin ? u.href : null;
  } catch {
    return null;
  }
}

export interface WindowLike {
  url: string;
  visibilityState?: DocumentVisibilityState;
  focused?: boolean;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
}

/** R11.4: a window showing that chat, visible, means the user already sees the message. */
export function chatVisibleIn(windows: readonly WindowLike[], conversationId: string): boolean {
  return windows.some((w) => w.visibilityState === 'visible' && pathOf(w.url) === `/app/chats/${conversationId}`);
}

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

export interface BadgeApi {
  setAppBadge?(n?: number): Promise<void>;
  clearAppBadge?(): Promise<void>;
}

/** How long a push waits for the badge at most: it is a hint, and a platform call that never answers
 *  must not hold the push event open until the browser cancels it. */
export const BADGE_WAIT_MS = 2_000;

/** R11.5: the badge is the total unread; 0 clears it. Absent API (Firefox, iOS < 16.4): nothing. */
export async function applyBadge(nav: BadgeApi, unread: number, waitMs = BADGE_WAIT_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const call = unread > 0 ? nav.setAppBadge?.(unread) : nav.clearAppBadge?.();
    await Promise.race([call, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
  } catch {
    /* a badge is a hint: never fail a push for it */
  } finally {
    clearTimeout(timer);
  }
}

export interface PushDeps {
  origin: string;
  windows(): Promise<readonly WindowLike[]>;
  show(title: string, options: NotificationOptions & { renotify?: boolean }): Promise<void>;
  badge: BadgeApi;
}

/**
 * How long a push waits at most for the one before it (R11.4). A push settles in well under a second
 * (its windows, its notification, the badge bounded by BADGE_WAIT_MS); one that has not after this is
 * stuck (a `clients.matchAll` or `showNotification` that never answers), and the browser would let it
 * hold every later push until it ends the worker's event, minutes later.
 */
export const PUSH_TURN_MS = 10_000;

/**
 * R11.4: pushes are handled in the order they were delivered: each waits until the one before it has
 * settled (shown, skipped or failed), or has had PUSH_TURN_MS to. Two handled side by side can finish
 * out of order (each first asks for the windows), and for one conversation's tag the earlier message's
 * notification then replaced the later one, with the earlier unread count on the badge
 * (push-notifications.e2e, session 52: a burst of two showed the first's text).
 */
export function inDeliveryOrder(turnMs = PUSH_TURN_MS): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<void> = Promise.resolve();
  return (task) => {
    const before = last;
    const run = before.then(task);
    // The next push's turn comes when this one has settled (a failed push holds up no later one) or
    // when this one has had turnMs since it started.
    last = before.then(
      () =>
        new Promise<void>((next) => {
          const timer = setTimeout(next, turnMs);
          const settled = () => {
            clearTimeout(timer);
            next();
          };
          run.then(settled, settled);
        }),
    );
    return run;
  };
}

/** Handles one push; answers what it did (for the tests). */
export async function handlePush(raw: unknown, deps: PushDeps): Promise<'shown' | 'skipped-visible' | 'badge' | 'ignored'> {
  const p = parsePushPayload(raw, deps.origin);
  if (!p) return 'ignored';
  // The notification never waits for the badge: both start at once, and the push ends when both have.
  const badge = p.unread === null ? undefined : applyBadge(deps.badge, p.unread);
  if (p.type === 'badge') {
    await badge;
    return 'badge';
  }
  if (chatVisibleIn(await deps.windows(), p.conversationId)) {
    await badge;
    return 'skipped-visible';
  }
  await deps.show(p.title, {
    body: p.body,
    ...(p.icon ? { icon: p.icon } : {}),
    tag: p.tag,
    renotify: false,
    data: { url: p.url, conversationId: p.conversationId },
  });
  await badge;
  return 'shown';
}

export interface ClickDeps {
  origin: string;
  windows(): Promise<readonly WindowLike[]>;
  open(url: string): Promise<unknown>;
}

/**
 * R11.6: the click lands on the chat. A window already on it is focused; else a window of ours is
 * focused and navigated there; else a new one opens. navigate() only works on a window this worker
 * controls, so a failed navigate falls back to opening.
 */
export async function handleClick(data: unknown, deps: ClickDeps): Promise<'focused' | 'navigated' | 'opened'> {
  const url = safeAppPath((data as { url?: unknown } | null)?.url, deps.origin) ?? '/app/chats';
  const target = new URL(url, deps.origin);
  const windows = await deps.windows();
  const same = windows.find((w) => pathOf(w.url) === target.pathname.replace(/\/+$/, ''));
  if (same) {
    await same.focus();
    return 'focused';
  }
  const ours = windows.find((w) => w.focused) ?? windows[0];
  if (ours?.navigate) {
    try {
      await ours.focus();
      await ours.navigate(target.href);
      return 'navigated';
    } catch {
      /* uncontrolled window: open instead */
    }
  }
  await deps.open(target.href);
  return 'opened';
}

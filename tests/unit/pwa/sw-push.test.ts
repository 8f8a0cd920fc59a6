// The service worker's push handlers (sw/push.ts, sw/push-resubscribe.ts) with injected parts: what a
// push shows, when it is skipped, the badge, where a click lands, and re-subscription (R11.x).
import { describe, expect, it, vi, type Mock } from 'vitest';
import { applyBadge, BADGE_WAIT_MS, handleClick, handlePush, inDeliveryOrder, parsePushPayload, PUSH_TURN_MS, safeAppPath, type WindowLike } from '../../../sw/push.ts';
import { resubscribe, type SubscriptionLike } from '../../../sw/push-resubscribe.ts';
import type { MirroredSession } from '../../../sync/background/session-store.ts';

const ORIGIN = 'https://app.test';
const CID = '0b7c2f5e-8f7a-4a51-9e3c-1d2f3a4b5c6d';
const msg = (over: Record<string, unknown> = {}) => ({
  type: 'message',
  conversationId: CID,
  messageId: 'm1',
  title: 'Mgr. Jana',
  body: 'Dobrý deň',
  icon: '/avatars/jana.webp',
  tag: `conversation:${CID}`,
  url: `/app/chats/${CID}`,
  unread: 3,
  ...over,
});

type TestWindow = Omit<WindowLike, 'focus' | 'navigate'> & { focus: Mock<() => Promise<unknown>>; navigate: Mock<(url: string) => Promise<unknown>> };
function win(url: string, visibilityState: DocumentVisibilityState = 'visible', extra: Partial<WindowLike> = {}): TestWindow {
  return { url, visibilityState, focused: false, focus: vi.fn(async () => undefined), navigate: vi.fn(async () => undefined), ...extra } as never;
}

function pushDeps(windows: WindowLike[] = []) {
  const badge = { setAppBadge: vi.fn(async (_n?: number) => undefined), clearAppBadge: vi.fn(async () => undefined) };
  const show = vi.fn(async (_t: string, _o: NotificationOptions) => undefined);
  return { deps: { origin: ORIGIN, windows: async () => windows, show, badge }, show, badge };
}

describe('push (R11.4, R11.5)', () => {
  it('shows one notification per conversation: title, body, icon, tag, no renotify, the url in data', async () => {
    const { deps, show, badge } = pushDeps();
    expect(await handlePush(msg(), deps)).toBe('shown');
    expect(show).toHaveBeenCalledWith('Mgr. Jana', {
      body: 'Dobrý deň',
      icon: `${ORIGIN}/avatars/jana.webp`,
      tag: `conversation:${CID}`,
      renotify: false,
      data: { url: `/app/chats/${CID}`, conversationId: CID },
    });
    expect(badge.setAppBadge).toHaveBeenCalledWith(3);
  });

  it('shows the notification without waiting for the badge, and waits for a badge that never answers only so long', async () => {
    vi.useFakeTimers();
    try {
      const { deps, show, badge } = pushDeps();
      badge.setAppBadge.mockImplementation(() => new Promise<undefined>(() => {}));
      const outcome = handlePush(msg(), deps);
      await vi.advanceTimersByTimeAsync(0);
      expect(show).toHaveBeenCalledTimes(1);
      let ended = false;
      void outcome.then(() => (ended = true));
      await vi.advanceTimersByTimeAsync(BADGE_WAIT_MS - 1);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBe('shown');
    } finally {
      vi.useRealTimers();
    }
  });

  it('is skipped while a visible window shows that chat, but the badge still follows', async () => {
    const { deps, show, badge } = pushDeps([win(`${ORIGIN}/app/chats/${CID}`)]);
    expect(await handlePush(msg(), deps)).toBe('skipped-visible');
    expect(show).not.toHaveBeenCalled();
    expect(badge.setAppBadge).toHaveBeenCalledWith(3);
  });

  it('is shown when the chat is open but hidden, or another chat is visible', async () => {
    for (const w of [win(`${ORIGIN}/app/chats/${CID}`, 'hidden'), win(`${ORIGIN}/app/chats/other`), win(`${ORIGIN}/app/chats`)]) {
      const { deps, show } = pushDeps([w]);
      expect(await handlePush(msg(), deps)).toBe('shown');
      expect(show).toHaveBeenCalledTimes(1);
    }
  });

  it('a badge push sets the badge; 0 clears it; no notification', async () => {
    const { deps, show, badge } = pushDeps();
    expect(await handlePush({ type: 'badge', unread: 0 }, deps)).toBe('badge');
    expect(badge.clearAppBadge).toHaveBeenCalledTimes(1);
    expect(show).not.toHaveBeenCalled();
    await applyBadge(badge, 7);
    expect(badge.setAppBadge).toHaveBeenCalledWith(7);
    await expect(applyBadge({}, 2)).resolves.toBeUndefined(); // no badge API: nothing
    await expect(applyBadge({ setAppBadge: () => Promise.reject(new Error('x')) }, 2)).resolves.toBeUndefined();
  });

  it('ignores what it does not understand and never takes a foreign url or icon', async () => {
    const { deps, show } = pushDeps();
    expect(await handlePush(null, deps)).toBe('ignored');
    expect(await handlePush({ type: 'message' }, deps)).toBe('ignored');
    expect(await handlePush(msg({ conversationId: '../../x' }), deps)).toBe('ignored');
    const p = parsePushPayload(msg({ url: 'https://evil.test/app/chats/x', icon: 'javascript:alert(1)', tag: 'other' }), ORIGIN);
    expect(p).toMatchObject({ url: `/app/chats/${CID}`, icon: null, tag: `conversation:${CID}` });
    expect(show).not.toHaveBeenCalled();
  });

  // Session 52: two pushes of one conversation handled side by side finished out of order, and the
  // first's text replaced the second's under their shared tag.
  it('R11.4 a burst is shown in delivery order: the later message and its unread count are what stays, though the earlier one was slower to start', async () => {
    const { deps, show, badge } = pushDeps();
    const inOrder = inDeliveryOrder();
    let windowsAsked = 0;
    // The first push's look at the windows takes longer than the second's.
    const slowFirst = { ...deps, windows: async () => (++windowsAsked === 1 ? new Promise<readonly WindowLike[]>((r) => setTimeout(() => r([]), 30)) : []) };
    const first = inOrder(() => handlePush(msg({ body: 'Prvá', unread: 3 }), slowFirst));
    const second = inOrder(() => handlePush(msg({ body: 'Druhá', unread: 4 }), slowFirst));
    expect(await Promise.all([first, second])).toEqual(['shown', 'shown']);
    expect(show.mock.calls.map(([, o]) => o.body)).toEqual(['Prvá', 'Druhá']);
    expect(badge.setAppBadge.mock.calls.map(([n]) => n)).toEqual([3, 4]);
  });

  it('a push that failed holds up none after it', async () => {
    const { deps, show } = pushDeps();
    const inOrder = inDeliveryOrder();
    const broken = { ...deps, show: async () => Promise.reject(new Error('no permission')) };
    const first = inOrder(() => handlePush(msg({ body: 'Prvá' }), broken));
    const second = inOrder(() => handlePush(msg({ body: 'Druhá' }), deps));
    await expect(first).rejects.toThrow('no permission');
    expect(await second).toBe('shown');
    expect(show.mock.calls.map(([, o]) => o.body)).toEqual(['Druhá']);
  });

  it('R11.4 a push that never settles holds up the next only for its turn (PUSH_TURN_MS)', async () => {
    expect(PUSH_TURN_MS).toBe(10_000);
    const { deps, show } = pushDeps();
    const inOrder = inDeliveryOrder(80);
    // The first push's notification never answers (a stuck showNotification).
    const stuck = { ...deps, show: () => new Promise<void>(() => undefined) };
    void inOrder(() => handlePush(msg({ body: 'Prvá' }), stuck));
    const started = Date.now();
    let shownAt = 0;
    const second = inOrder(() => handlePush(msg({ body: 'Druhá' }), deps)).then((r) => ((shownAt = Date.now()), r));
    await new Promise((r) => setTimeout(r, 40));
    expect(show, 'the second waited while the first had its turn').not.toHaveBeenCalled();
    expect(await second).toBe('shown');
    expect(shownAt - started).toBeGreaterThanOrEqual(70);
    expect(show.mock.calls.map(([, o]) => o.body)).toEqual(['Druhá']);
  });

  it('safeAppPath keeps only same-origin paths under /app/', () => {
    expect(safeAppPath('/app/chats/1', ORIGIN)).toBe('/app/chats/1');
    for (const bad of ['//evil.test/app/', '/\\evil.test', 'https://evil.test/app/x', '/admin', 'app/chats', 42, null]) {
      expect(safeAppPath(bad, ORIGIN)).toBeNull();
    }
  });
});

describe('notificationclick (R11.6)', () => {
  const data = { url: `/app/chats/${CID}` };
  it('focuses a window already on the chat', async () => {
    const w = win(`${ORIGIN}/app/chats/${CID}`, 'hidden');
    const open = vi.fn(async () => null);
    expect(await handleClick(data, { origin: ORIGIN, windows: async () => [win(`${ORIGIN}/app/chats`), w], open })).toBe('focused');
    expect(w.focus).toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });
  it('navigates another window of ours there', async () => {
    const w = win(`${ORIGIN}/app/settings`);
    const open = vi.fn(async () => null);
    expect(await handleClick(data, { origin: ORIGIN, windows: async () => [w], open })).toBe('navigated');
    expect(w.navigate).toHaveBeenCalledWith(`${ORIGIN}/app/chats/${CID}`);
  });
  it('opens a window when none is open, or navigate is refused', async () => {
    const open = vi.fn(async () => null);
    expect(await handleClick(data, { origin: ORIGIN, windows: async () => [], open })).toBe('opened');
    expect(open).toHaveBeenCalledWith(`${ORIGIN}/app/chats/${CID}`);
    const refusing = win(`${ORIGIN}/app/settings`, 'visible', { navigate: () => Promise.reject(new TypeError('not controlled')) });
    expect(await handleClick(data, { origin: ORIGIN, windows: async () => [refusing], open })).toBe('opened');
  });
  it('never opens a foreign url', async () => {
    const open = vi.fn(async () => null);
    await handleClick({ url: 'https://evil.test/' }, { origin: ORIGIN, windows: async () => [], open });
    expect(open).toHaveBeenCalledWith(`${ORIGIN}/app/chats`);
  });
});

describe('pushsubscriptionchange (R11.3)', () => {
  const session: MirroredSession = { url: 'http://api.test/', anonKey: 'anon', userId: 'u1', accessToken: 'tok', expiresAt: 2_000_000 };
  const sub = (endpoint: string, key: ArrayBuffer | null = new Uint8Array([4, 1, 2]).buffer): SubscriptionLike => ({
    endpoint,
    options: { applicationServerKey: key },
    toJSON: () => ({ endpoint, keys: { p256dh: 'P', auth: 'A' } }),
  });
  const deps = (s: MirroredSession | null, nowMs = 1_000_000_000) => {
    const rpc = vi.fn(async () => undefined);
    const subscribe = vi.fn(async () => sub('https://push.test/new'));
    return { rpc, subscribe, d: { session: async () => s, now: () => nowMs, subscribe, rpc, userAgent: 'UA' } };
  };

  it('subscribes again with the old key, registers the new endpoint and drops the old one', async () => {
    const { rpc, subscribe, d } = deps(session);
    expect(await resubscribe(sub('https://push.test/old'), null, d)).toBe('registered');
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(rpc.mock.calls).toEqual([
      [session, 'push_subscribe', { p_endpoint: 'https://push.test/new', p_p256dh: 'P', p_auth: 'A', p_user_agent: 'UA' }],
      [session, 'push_unsubscribe', { p_endpoint: 'https://push.test/old' }],
    ]);
  });
  it('takes the browser’s new subscription when it gives one', async () => {
    const { subscribe, rpc, d } = deps(session);
    await resubscribe(null, sub('https://push.test/given'), d);
    expect(subscribe).not.toHaveBeenCalled();
    expect(rpc).toHaveBeenCalledWith(session, 'push_subscribe', expect.objectContaining({ p_endpoint: 'https://push.test/given' }));
  });
  it('without a usable token tells the server nothing (the next open re-registers); never refreshes', async () => {
    for (const s of [null, { ...session, expiresAt: 1_000_000 + 10 }]) {
      const { rpc, d } = deps(s);
      expect(await resubscribe(sub('https://push.test/old'), null, d)).toBe('no-session');
      expect(rpc).not.toHaveBeenCalled();
    }
    const { d } = deps(session);
    expect(await resubscribe(sub('https://push.test/old', null), null, d)).toBe('no-key');
  });
});

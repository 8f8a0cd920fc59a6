// @vitest-environment jsdom
// The page's side of notifications: what the card may offer on which platform (R11.1), the VAPID key
// decoding, and the viewing reports (R11.7).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capability, urlBase64ToBytes, type PushPlatform } from '../../../src/pwa/push.ts';
import { chatOfPath, VIEWING_HEARTBEAT_MS, watchViewing } from '../../../src/pwa/push-viewing.ts';

const ok: PushPlatform = { vapidKey: 'BKey', hasServiceWorker: true, hasPushManager: true, hasNotification: true, permission: 'default', ios: false, standalone: false };

describe('capability (R11.1)', () => {
  it('names why notifications cannot be offered', () => {
    expect(capability(ok)).toBe('ok');
    expect(capability({ ...ok, permission: 'denied' })).toBe('blocked');
    expect(capability({ ...ok, vapidKey: null })).toBe('unavailable');
    expect(capability({ ...ok, hasPushManager: false })).toBe('unsupported');
    expect(capability({ ...ok, hasNotification: false, permission: null })).toBe('unsupported');
    // iOS Safari outside the home screen has no PushManager at all: the card says to add it there.
    expect(capability({ ...ok, ios: true, hasPushManager: false })).toBe('ios-install');
    expect(capability({ ...ok, ios: true, standalone: true })).toBe('ok');
  });
  it('decodes the base64url VAPID key', () => {
    expect([...urlBase64ToBytes('BAEC_-8')]).toEqual([4, 1, 2, 255, 239]);
  });
});

describe('push_viewing reports (R11.7)', () => {
  afterEach(() => vi.useRealTimers());
  function fakeDoc(initial: DocumentVisibilityState) {
    const listeners = new Set<() => void>();
    const doc = {
      visibilityState: initial,
      addEventListener: (_: string, f: () => void) => listeners.add(f),
      removeEventListener: (_: string, f: () => void) => listeners.delete(f),
    };
    const set = (v: DocumentVisibilityState) => {
      doc.visibilityState = v;
      for (const f of listeners) f();
    };
    return { doc: doc as unknown as Document, set };
  }

  it('only chat addresses count', () => {
    expect(chatOfPath('/app/chats/abc')).toBe('abc');
    expect(chatOfPath('/app/chats')).toBeNull();
    expect(chatOfPath('/app/archived')).toBeNull();
  });

  it('reports on becoming visible, every 20 s while visible, null when hidden and when left', () => {
    vi.useFakeTimers();
    const report = vi.fn();
    const { doc, set } = fakeDoc('hidden');
    const stop = watchViewing('c1', report, doc);
    expect(report).not.toHaveBeenCalled(); // a hidden tab is not viewing
    set('visible');
    expect(report.mock.calls).toEqual([['c1']]);
    vi.advanceTimersByTime(VIEWING_HEARTBEAT_MS * 2);
    expect(report.mock.calls).toEqual([['c1'], ['c1'], ['c1']]);
    set('hidden');
    expect(report).toHaveBeenLastCalledWith(null);
    vi.advanceTimersByTime(VIEWING_HEARTBEAT_MS * 3);
    expect(report).toHaveBeenCalledTimes(4);
    set('visible');
    stop();
    expect(report.mock.calls.slice(-2)).toEqual([['c1'], [null]]);
    vi.advanceTimersByTime(VIEWING_HEARTBEAT_MS * 3);
    expect(report).toHaveBeenCalledTimes(6);
  });
});

// @vitest-environment jsdom
// The update flow's activation rounds (src/pwa/register-sw.ts) against a fake service-worker
// registration: Chromium's real one is driven by the e2e journeys (pwa-update*, pwa-update-retry),
// but it cannot be made to report a worker 'installed' before the registration names it waiting on
// demand. That order is what left pwa-update-retry 60 s on build a with build b waiting and no round
// run (session 48): a round started by 'installed' must look again rather than end the loop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const wb = vi.hoisted(() => ({ listeners: new Map<string, (e: { isUpdate?: boolean }) => void>(), register: vi.fn() }));
vi.mock('workbox-window', () => ({
  Workbox: class {
    addEventListener(type: string, fn: (e: { isUpdate?: boolean }) => void) {
      wb.listeners.set(type, fn);
    }
    register = wb.register;
    update = vi.fn(async () => undefined);
  },
}));
const tabs = vi.hoisted(() => ({ safe: true, asked: 0, hang: false }));
vi.mock('../../../src/pwa/tab-gate.ts', () => ({
  openTabGate: () => ({
    allTabsSafe: async () => {
      tabs.asked++;
      // A question that never answers (a lock query or a database count that hangs).
      if (tabs.hang) return new Promise<boolean>(() => undefined);
      return tabs.safe;
    },
    close: () => undefined,
  }),
}));
vi.mock('../../../src/pwa/restore-notice.ts', () => ({ announceRestores: () => undefined }));

const { registerServiceWorker } = await import('../../../src/pwa/register-sw.ts');
const { SW_MESSAGES } = await import('../../../sw/config.ts');

/** A ServiceWorker whose statechange the test fires. */
function fakeWorker() {
  const listeners: (() => void)[] = [];
  return {
    state: 'installing',
    postMessage: vi.fn(),
    addEventListener: (_type: string, fn: () => void) => listeners.push(fn),
    becomes(state: string) {
      this.state = state;
      for (const fn of listeners) fn();
    },
  };
}

type Worker = ReturnType<typeof fakeWorker>;

function fakeRegistration() {
  const listeners: (() => void)[] = [];
  return {
    waiting: null as Worker | null,
    installing: null as Worker | null,
    addEventListener: (_type: string, fn: () => void) => listeners.push(fn),
    /** A new version found: updatefound with it installing. */
    found(worker: Worker) {
      this.installing = worker;
      for (const fn of listeners) fn();
    },
  };
}

let reg: ReturnType<typeof fakeRegistration>;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubEnv('PROD', true);
  tabs.safe = true;
  tabs.asked = 0;
  tabs.hang = false;
  delete document.documentElement.dataset['update'];
  reg = fakeRegistration();
  wb.register.mockImplementation(async () => reg);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      controller: {}, // a page already controlled by build a
      getRegistration: async () => reg,
      addEventListener: () => undefined,
    },
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

/** Lets the promise chains of a round (getRegistration, allTabsSafe) settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('registerServiceWorker activation rounds', () => {
  it("a worker 'installed' before the registration names it waiting is looked at again, and activated once it is", async () => {
    registerServiceWorker();
    await settle();
    const b = fakeWorker();
    reg.found(b);
    b.becomes('installed'); // the registration's `waiting` is not set yet
    await settle();
    expect(b.postMessage).not.toHaveBeenCalled();
    reg.waiting = b; // the registration's own message arrives
    await vi.advanceTimersByTimeAsync(5000);
    expect(tabs.asked).toBe(1);
    expect(b.postMessage).toHaveBeenCalledWith({ type: SW_MESSAGES.activate });
  });

  it('asks again every 5 s while a version waits and a tab refuses, and stops once none waits', async () => {
    registerServiceWorker();
    await settle();
    const b = fakeWorker();
    reg.waiting = b;
    tabs.safe = false;
    wb.listeners.get('waiting')!({ isUpdate: true });
    await settle();
    expect(tabs.asked).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(tabs.asked).toBe(2);
    expect(b.postMessage).not.toHaveBeenCalled();
    tabs.safe = true;
    await vi.advanceTimersByTimeAsync(5000);
    expect(b.postMessage).toHaveBeenCalledTimes(1);
    reg.waiting = null; // activated
    await vi.advanceTimersByTimeAsync(5000);
    const asked = tabs.asked;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(tabs.asked).toBe(asked);
  });

  it("a first install ('installed' with no version waiting) asks no tab", async () => {
    registerServiceWorker();
    await settle();
    const a = fakeWorker();
    reg.found(a);
    a.becomes('installed');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(tabs.asked).toBe(0);
    expect(a.postMessage).not.toHaveBeenCalled();
  });

  it('a round that never answers is left behind after 15 s: the next one asks, activates, and says so on <html data-update>', async () => {
    registerServiceWorker();
    await settle();
    const b = fakeWorker();
    reg.waiting = b;
    tabs.hang = true;
    wb.listeners.get('waiting')!({ isUpdate: true });
    await settle();
    expect(tabs.asked).toBe(1);
    expect(document.documentElement.dataset['update']).toBe('1 asking');
    await vi.advanceTimersByTimeAsync(14_999);
    expect(tabs.asked).toBe(1);
    tabs.hang = false;
    await vi.advanceTimersByTimeAsync(1);
    expect(tabs.asked).toBe(2);
    expect(b.postMessage).toHaveBeenCalledTimes(1);
    expect(document.documentElement.dataset['update']).toBe('2 activate sent');
    // The rounds go on at the usual 5 s pace while the version still waits (round 1 never ends).
    await vi.advanceTimersByTimeAsync(5000);
    expect(tabs.asked).toBe(3);
    tabs.safe = false;
    await vi.advanceTimersByTimeAsync(5000);
    expect(document.documentElement.dataset['update']).toBe('4 not safe');
  });
});

// Registers /sw.js (scope /) and runs the update flow: a new version waits until every open tab's
// updateIsSafe() agrees (outbox flushed, no composer holds text; tab-gate.ts), then activates; each
// page reloads exactly once when the new worker takes control, guarded against loops. The first
// install announces offline readiness. Also shows the notice of a restore after eviction.
import { Workbox } from 'workbox-window';
import { SW_MESSAGES } from '../../sw/config.ts';
import { announceRestores } from './restore-notice.ts';
import { openTabGate } from './tab-gate.ts';
import { updateIsSafe } from './update-gate.ts';

const RELOAD_GUARD_KEY = 'poradna.sw-reloaded-at';
const RECHECK_MS = 5000;
const LOOP_WINDOW_MS = 30_000;

export interface RegisterOptions {
  onOfflineReady?: () => void;
}

export function registerServiceWorker(opts: RegisterOptions = {}): void {
  announceRestores();
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const gate = openTabGate(updateIsSafe);
  const wb = new Workbox('/sw.js', { scope: '/' });
  let waiting = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controlled = navigator.serviceWorker.controller !== null;

  const tryActivate = async () => {
    if (!waiting) return;
    if (await gate.allTabsSafe()) {
      // The message goes to the waiting worker itself (the controlling one cannot skip its waiting).
      const reg = await navigator.serviceWorker.getRegistration('/');
      reg?.waiting?.postMessage({ type: SW_MESSAGES.activate });
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void tryActivate(), RECHECK_MS);
  };

  wb.addEventListener('installed', (e) => {
    if (!e.isUpdate && !controlled) opts.onOfflineReady?.();
  });
  wb.addEventListener('waiting', () => {
    waiting = true;
    void tryActivate();
  });
  // A controller change reloads only a page that already had a controller: the first install claims
  // the page without replacing any code. (workbox-window's isUpdate is fixed at register time, so a
  // page first claimed in this session would never reload for a later update.)
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    const wasControlled = controlled;
    controlled = true;
    if (!wasControlled) return;
    const last = Number(sessionStorage.getItem(RELOAD_GUARD_KEY) ?? 0);
    if (Date.now() - last < LOOP_WINDOW_MS) return; // never loop
    sessionStorage.setItem(RELOAD_GUARD_KEY, String(Date.now()));
    window.location.reload();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void wb.update();
  });
  void wb.register();
  void navigator.storage?.persist?.().catch(() => false);
}

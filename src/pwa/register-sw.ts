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
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controlled = navigator.serviceWorker.controller !== null;

  // Asks again every RECHECK_MS for as long as a version waits, whatever happened before: a tab that
  // refused may be safe now, an activate message that did not take is sent again, and an error (a
  // lock query, the registration) ends one round, never the loop. (It used to stop after posting
  // activate, or on an error, so a waiting version could sit until the next reload: pwa-update-tabs
  // once saw tab one, its outbox empty, ask the other tabs 0 times in 30 s; session 41.) Whether a
  // version waits is asked of the registration, not remembered from workbox-window's 'waiting':
  // workbox-window follows only the first update it did not start itself (it drops its updatefound
  // listener after one: workbox-window src/Workbox.ts, _onUpdateFound), so a tab open across two
  // deploys would never hear of the second.
  const tryActivate = async () => {
    clearTimeout(timer);
    try {
      const waiting = (await navigator.serviceWorker.getRegistration('/'))?.waiting;
      if (!waiting) return;
      // The message goes to the waiting worker itself (the controlling one cannot skip its waiting).
      if (await gate.allTabsSafe()) waiting.postMessage({ type: SW_MESSAGES.activate });
    } catch {
      // asked again below
    }
    clearTimeout(timer);
    timer = setTimeout(() => void tryActivate(), RECHECK_MS);
  };

  wb.addEventListener('installed', (e) => {
    if (!e.isUpdate && !controlled) opts.onOfflineReady?.();
  });
  wb.addEventListener('waiting', () => void tryActivate());
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
  // Every version found later, by this tab or another: the registration's own event (see tryActivate).
  void wb
    .register()
    .then((reg) =>
      reg?.addEventListener('updatefound', () => {
        const sw = reg.installing;
        sw?.addEventListener('statechange', () => {
          if (sw.state === 'installed') void tryActivate();
        });
      }),
    )
    .catch(() => undefined);
  void navigator.storage?.persist?.().catch(() => false);
}

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
const ROUND_LIMIT_MS = 15_000;
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
  let rounds = 0;
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
  // `installed`: called for a worker that has just said so. Its state and the registration's `waiting`
  // arrive by separate messages, so the registration may not name it yet: look again then, rather
  // than end the loop with a version waiting (pwa-update-retry once sat 60 s on build a with b
  // waiting and no round run; session 48).
  // A round that has not ended after ROUND_LIMIT_MS is left behind and the next one starts: a lock
  // query, a database count or the registration that never answers must not end the loop either
  // (pwa-update once stayed 20 s on build a with its composer cleared; stop 59's CI run). Only the
  // newest round sets the next timer, so rounds left behind never double the pace.
  // The newest round's outcome is on <html data-update> ("3 not safe"): a stuck update on a phone can
  // be read with remote DevTools, and the update journeys print it when they fail.
  const tryActivate = async (installed = false) => {
    const mine = ++rounds;
    clearTimeout(timer);
    timer = setTimeout(() => void tryActivate(), ROUND_LIMIT_MS);
    document.documentElement.dataset['update'] = `${mine} asking`;
    let again = true;
    let outcome: string;
    try {
      const waiting = (await navigator.serviceWorker.getRegistration('/'))?.waiting;
      if (!waiting) {
        again = installed;
        outcome = 'none waiting';
      } else if (await gate.allTabsSafe()) {
        // The message goes to the waiting worker itself (the controlling one cannot skip its waiting).
        waiting.postMessage({ type: SW_MESSAGES.activate });
        outcome = 'activate sent';
      } else outcome = 'not safe';
    } catch (err) {
      outcome = `error: ${String(err)}`; // asked again below
    }
    if (mine !== rounds) return; // a newer round has started and owns the timer
    document.documentElement.dataset['update'] = `${mine} ${outcome}`;
    clearTimeout(timer);
    if (again) timer = setTimeout(() => void tryActivate(), RECHECK_MS);
  };

  wb.addEventListener('installed', (e) => {
    if (!e.isUpdate && !controlled) opts.onOfflineReady?.();
  });
  wb.addEventListener('waiting', () => void tryActivate(true)); // also sent on the worker's 'installed'
  // A controller change reloads only a page that already had a controller: the first install claims
  // the page without replacing any code. (workbox-window's isUpdate is fixed at register time, so a
  // page first claimed in this session would never reload for a later update.)
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    const wasControlled = controlled;
    controlled = true;
    if (!wasControlled) return;
    const last = Number(sessionStorage.getItem(RELOAD_GUARD_KEY) ?? 0);
    const loop = Date.now() - last < LOOP_WINDOW_MS; // never loop
    document.documentElement.dataset['update'] = loop ? 'new worker in control; reload held (loop guard)' : 'new worker in control; reloading';
    if (loop) return;
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
          if (sw.state === 'installed') void tryActivate(true);
        });
      }),
    )
    .catch(() => undefined);
  void navigator.storage?.persist?.().catch(() => false);
}

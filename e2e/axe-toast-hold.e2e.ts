// The axe probe holds sonner's toasts still (e2e/axe-helpers.ts). A toast whose time runs out while
// axe runs is the case CI met on a busy machine (sonner's toast title judged mid-fade in
// attachments.e2e.ts); here axe's run is made to outlast the toast's time on purpose: the real run
// starts only when the toast's 5 s are a second past. Held, the toast is still there and fully
// opaque when axe measures it and after, in the same place, judged like the rest of the page; released,
// it leaves by itself. Without the hold it leaves during the run and this fails.
import { expect, test } from '@playwright/test';
import { toast } from './admin-helpers.ts';
import { axeViolations } from './axe-helpers.ts';

// axe is injected as an inline script, which the app's CSP (rightly) refuses: bypass it for the probe
// only. No service worker: its first install shows a toast of its own ('pripravená aj na prácu bez
// pripojenia') at a moment of its own, which would take the front from the toast timed here.
test.use({ bypassCSP: true, serviceWorkers: 'block' });

/** AppToaster's TOAST_DURATION_MS: the toast's time from its mount. */
const TOAST_MS = 5_000;

interface Probe {
  mountedAt?: number;
  before?: { top: number; left: number };
  atRun?: { present: boolean; removed: string | null; opacity: string; top: number; left: number; at: number };
  judged?: boolean;
}

test("a toast whose time ends during axe's run is held still, judged, and leaves after", async ({ page }) => {
  test.setTimeout(45_000);
  await page.addInitScript((toastMs) => {
    const probe: Probe = {};
    (window as unknown as { __probe: Probe }).__probe = probe;
    const first = () => document.querySelector<HTMLElement>('[data-sonner-toast]');
    // When the toast mounts (sonner starts its close timer then).
    new MutationObserver((_, observer) => {
      if (!first()) return;
      probe.mountedAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
    // axe installs itself as `window.axe = axe` before its `run` is there: the run is wrapped the first
    // time axe is read with one.
    type Axe = { run: (context: unknown, options: unknown) => Promise<{ passes: { id: string; nodes: { target: string[] }[] }[] }> };
    let axe: Axe | undefined;
    let wrapped = false;
    const wrap = (real: Axe) => {
      const run = real.run.bind(real);
      real.run = async (context, options) => {
        const box = first()?.getBoundingClientRect();
        if (box) probe.before = { top: box.top, left: box.left };
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, probe.mountedAt! + toastMs + 1_000 - performance.now())));
        const t = first();
        const at = t?.getBoundingClientRect();
        probe.atRun = {
          present: !!t,
          removed: t?.getAttribute('data-removed') ?? null,
          opacity: t ? getComputedStyle(t).opacity : '',
          top: at?.top ?? NaN,
          left: at?.left ?? NaN,
          at: performance.now(),
        };
        const result = await run(context, options);
        // Judged, not left out: color-contrast measured a node inside the toast.
        const contrast = result.passes.find((p) => p.id === 'color-contrast');
        probe.judged = !!contrast?.nodes.some((n) => document.querySelector(n.target[0] ?? ':not(*)')?.closest('[data-sonner-toast]'));
        return result;
      };
      wrapped = true;
    };
    Object.defineProperty(window, 'axe', {
      configurable: true,
      get: () => {
        if (axe && !wrapped && typeof axe.run === 'function') wrap(axe);
        return axe;
      },
      set: (real: Axe) => {
        axe = real;
      },
    });
  }, TOAST_MS);

  await page.goto('/auth/login');
  // The magic link asked for with no address: the toast 'Chýba e-mail'. By the keyboard, so the real
  // pointer stays away from the toaster (under the pointer sonner would hold the toast by itself).
  await page.getByRole('button', { name: 'Prihlásiť e‑mail odkazom' }).press('Enter');
  const shown = toast(page, 'Chýba e-mail');
  await expect(shown).toBeVisible();
  expect(await page.locator('[data-sonner-toaster]').evaluate((el) => el.matches(':hover')), 'the real pointer is elsewhere').toBe(false);
  const probe = () => page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);

  // About to leave: axe is called with two seconds of the toast's time left (room for the hold to land
  // on a loaded machine; the real run still starts a second after the time is over).
  await page.waitForFunction((ms) => performance.now() > (window as unknown as { __probe: Probe }).__probe.mountedAt! + ms, TOAST_MS - 2_000);
  expect(await axeViolations(page)).toEqual([]);

  const seen = await probe();
  expect(seen.atRun!.at - seen.mountedAt!, 'axe measured after the toast time was over').toBeGreaterThan(TOAST_MS);
  expect(seen.atRun, 'the toast when axe measured it').toMatchObject({ present: true, removed: 'false', opacity: '1' });
  expect({ top: seen.atRun!.top, left: seen.atRun!.left }, 'the hold moves no toast').toEqual(seen.before);
  expect(seen.judged, "axe judged the toast's text").toBe(true);
  await expect(shown, 'still there after axe').toBeVisible();
  await expect(shown).toHaveAttribute('data-removed', 'false');
  await expect(shown).toHaveCSS('opacity', '1');
  // Released: the time it had left runs on, and it goes.
  await expect(shown).toBeHidden({ timeout: 8_000 });
});

// Issue 40: the chat list's paint snapshot (sw/list-snapshot.ts) follows the theme chosen now, not
// the one its frame was saved in. public/theme.js sets <html class="dark"> on the snapshot page before
// the body is parsed; the frame's inline rules (src/pwa/list-snapshot.ts) must hold both palettes.
// Before, a frame saved in the light theme was painted light on a dark page until the app replaced it.
// The painted frame is read at DOMContentLoaded (an init script's listener, registered before the
// boot script's), when only the frame's own rules are in the page and the app has not started.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { launchProfile, signInControlled } from './pwa-helpers.ts';

/** Colours as sRGB channels 0–255 (the palette's colours compute as lab(), read through a canvas). */
interface Painted {
  dark: boolean;
  host: number[];
  text: number[];
}

/** The snapshot record's savedAt in the worker's store (0 when there is none). */
function savedAt(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        setTimeout(() => reject(new Error('poradna-worker did not answer in 10 s')), 10_000);
        const req = indexedDB.open('poradna-worker', 1);
        req.onupgradeneeded = () => req.result.createObjectStore('kv');
        req.onsuccess = () => {
          const get = req.result.transaction('kv').objectStore('kv').get('list-snapshot');
          get.onsuccess = () => {
            req.result.close();
            resolve((get.result as { savedAt?: number } | undefined)?.savedAt ?? 0);
          };
          get.onerror = () => reject(new Error(String(get.error)));
        };
        req.onerror = () => reject(new Error(String(req.error)));
      }),
  );
}

/** 0 (black) … 1 (white): near enough to tell the themes apart (a transparent colour reads 0). */
function luminance([r, g, b]: number[]): number {
  return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
}

async function openPainted(page: Page): Promise<Painted> {
  await page.goto('/app/chats', { waitUntil: 'domcontentloaded' });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __painted?: unknown }).__painted ?? null)).not.toBeNull();
  const painted = await page.evaluate(() => (window as unknown as { __painted: Painted | 'none' }).__painted);
  if (painted === 'none') throw new Error('the worker painted no snapshot');
  return painted;
}

test('the list snapshot is painted in the theme chosen now, whichever theme it was saved in', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const profile = await mkdtemp(join(tmpdir(), 'poradna-snap-theme-'));
  const context = await launchProfile(profile, baseURL!);
  context.setDefaultTimeout(20_000);
  context.setDefaultNavigationTimeout(30_000);
  await context.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const host = document.getElementById('list-snapshot');
      const name = host?.querySelector('[role="listitem"]');
      const srgb = (color: string) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b, a] = Array.from(ctx.getImageData(0, 0, 1, 1).data);
        return a === 0 ? [0, 0, 0] : [r, g, b];
      };
      (window as unknown as { __painted: unknown }).__painted =
        host && name
          ? {
              dark: document.documentElement.classList.contains('dark'),
              host: srgb(getComputedStyle(host).backgroundColor),
              text: srgb(getComputedStyle(name).color),
            }
          : 'none';
    });
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.emulateMedia({ colorScheme: 'light' });
    await signInControlled(page);
    await page.evaluate(() => localStorage.setItem('poradna:theme', 'light'));
    await page.goto('/app/chats');
    await expect(page.getByTestId('conversation-row').first()).toBeVisible();
    await expect.poll(() => savedAt(page), { timeout: 15_000 }).toBeGreaterThan(0);
    const light = await savedAt(page);

    // Saved light, shown dark.
    await page.evaluate(() => localStorage.setItem('poradna:theme', 'dark'));
    const dark = await openPainted(page);
    expect(dark.dark).toBe(true);
    expect(luminance(dark.host)).toBeLessThan(0.2);
    expect(luminance(dark.text)).toBeGreaterThan(0.7);

    // The dark list saves its own frame; saved dark, shown light.
    await expect(page.getByTestId('conversation-row').first()).toBeVisible();
    await expect.poll(() => savedAt(page), { timeout: 15_000 }).toBeGreaterThan(light);
    await page.evaluate(() => localStorage.setItem('poradna:theme', 'light'));
    const shownLight = await openPainted(page);
    expect(shownLight.dark).toBe(false);
    expect(luminance(shownLight.host)).toBeGreaterThan(0.8);
    expect(luminance(shownLight.text)).toBeLessThan(0.3);

    // Screenshots of the painted frame alone (no script: the app never replaces it), phone and
    // desktop, in both themes; the class theme.js would set is set by hand once scripts are back on.
    // A frame is painted only at a width of the layout it was drawn in (sw/list-snapshot.ts), so at
    // each width the app first saves that width's frame.
    let saved = await savedAt(page);
    for (const [label, size] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]] as const) {
      await page.setViewportSize(size);
      await page.goto('/app/chats');
      await expect(page.getByTestId('conversation-row').first()).toBeVisible();
      await expect.poll(() => savedAt(page), { timeout: 15_000 }).toBeGreaterThan(saved);
      saved = await savedAt(page);
      for (const theme of ['light', 'dark'] as const) {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
        await page.goto('/app/chats', { waitUntil: 'load' });
        await cdp.send('Emulation.setScriptExecutionDisabled', { value: false });
        await cdp.detach();
        await expect(page.locator('#list-snapshot')).toBeVisible();
        await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
        await page.screenshot({ path: `e2e/artifacts/screenshots/list-snapshot-theme/${label}-${theme}.png` });
      }
    }
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

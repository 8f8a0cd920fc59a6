// Shared steps of the admin-defects-*.e2e.ts journeys (issue 21, admin area): the admin's sign-in,
// screenshots to e2e/artifacts (never into git), axe (WCAG 2 A/AA) and the layout probes.
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import { DESKTOP, PHONE } from './defects-helpers.ts';

export { DESKTOP, PHONE };
export { signInAdmin } from './admin-helpers.ts';
export const ADMIN_SHOTS = 'e2e/artifacts/screenshots/admin';

export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ADMIN_SHOTS}/${name}.png`, animations: 'disabled' });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe's WCAG 2 A/AA violations on the page (the context needs bypassCSP: axe is an inline script).
 * It checks the screen at rest: a page change fades in over 0.22 s (src/layout/PageTransition.tsx), and
 * axe's color-contrast rule blends the text with its ancestors' opacity, so text caught mid-fade reads as
 * too faint (seen in CI: `color-contrast: p` on the offline notice after a client-side route change
 * whose new page looks like the old one, so "visible" was already true before React rendered it).
 * So it waits until no finite animation has run for six frames in a row; endless ones (skeleton pulse,
 * spinners) never finish and do not change text opacity.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let quietFrames = 0;
        const tick = () => {
          const moving = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
          quietFrames = moving ? 0 : quietFrames + 1;
          if (quietFrames >= 6) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
}

/** Emoji (and arrow glyphs used as icons) in the visible text: they render as empty boxes without an emoji font. */
export async function glyphsInText(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...text.matchAll(/\p{Extended_Pictographic}|[\u2190-\u21FF]/gu)].map((m) => m[0]);
}

/** Whether the page scrolls sideways (content wider than the viewport). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

export async function expectWithinViewport(page: Page, locator: ReturnType<Page['locator']>): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, 'element is laid out').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

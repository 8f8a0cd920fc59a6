// Shared steps of the admin-defects-*.e2e.ts journeys (issue 21, admin area): the admin's sign-in,
// screenshots to e2e/artifacts (never into git) and the layout probes; axe is e2e/axe-helpers.ts's.
import { expect, type Page } from '@playwright/test';
import { DESKTOP, PHONE } from './defects-helpers.ts';

export { DESKTOP, PHONE };
export { signInAdmin } from './admin-helpers.ts';
export const ADMIN_SHOTS = 'e2e/artifacts/screenshots/admin';

export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ADMIN_SHOTS}/${name}.png`, animations: 'disabled' });
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

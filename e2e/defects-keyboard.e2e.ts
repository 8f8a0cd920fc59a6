// Issue 21, user area item 9: one Tab stop per conversation row (the row, not 'Archivovať' first);
// the action opens from the keyboard with ArrowLeft and no row stays slid open once focus leaves it.
import { expect, test } from '@playwright/test';
import { DESKTOP, signIn } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: DESKTOP });

test('Tab visits each row once, ArrowLeft reaches the action, leaving closes the row', async ({ page }) => {
  await signIn(page, 'demo@poradna.test');
  const rows = page.getByTestId('conversation-row');
  await expect(rows.nth(2)).toBeVisible();
  await rows.first().focus();
  const focusedRow = () => page.evaluate(() => document.activeElement?.getAttribute('href'));
  const first = await focusedRow();
  await page.keyboard.press('Tab');
  const second = await focusedRow();
  expect(second).toBe(await rows.nth(1).getAttribute('href'));
  expect(second).not.toBe(first);
  await expect(page.locator('[data-revealed="true"]')).toHaveCount(0);

  await page.keyboard.press('ArrowLeft');
  const action = page.locator('[data-revealed="true"]').getByRole('button', { name: 'Archivovať' });
  await expect(action).toBeFocused();
  await expect(page.locator('[data-revealed="true"]')).toHaveCount(1);
  await page.screenshot({ path: 'e2e/artifacts/screenshots/keyboard-action-desktop.png' });
  await page.keyboard.press('Tab');
  await expect(page.locator('[data-revealed="true"]')).toHaveCount(0);
  expect(await focusedRow()).toBe(await rows.nth(2).getAttribute('href'));
});

test.describe('focus not obscured (WCAG 2.4.11)', () => {
  test.use({ viewport: { width: 360, height: 640 } });

  /** The element's box against the sticky header's bottom and the bottom navigation's top. */
  const clearance = (el: Element) => {
    const r = el.getBoundingClientRect();
    const nav = document.querySelector('nav[data-bottom-nav]')!.getBoundingClientRect();
    const header = document.querySelector('header[data-app-header]')!.getBoundingClientRect();
    return { belowHeader: r.top - header.bottom, aboveNav: nav.top - r.bottom };
  };

  test('a control scrolled into view stops clear of the header and the bottom navigation', async ({ page }) => {
    await storeSession(page, 'demo@poradna.test');
    await page.goto('/app/settings');
    const signOut = page.getByRole('button', { name: 'Odhlásiť sa', exact: true });
    const reset = page.getByRole('button', { name: 'Resetovať heslo' });
    await expect(signOut).toBeAttached();
    // Chromium centres a control it scrolls to for Tab; Firefox and Safari scroll the least they can
    // ('nearest'), as do anchors and the app's own scrollIntoView: the last button then lands at the
    // viewport's bottom edge, behind the fixed navigation unless the page reserves it (scroll-padding).
    await page.evaluate(() => window.scrollTo(0, 0));
    await signOut.evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
    expect((await signOut.evaluate(clearance)).aboveNav).toBeGreaterThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await reset.evaluate((el) => el.scrollIntoView({ block: 'nearest' }));
    expect((await reset.evaluate(clearance)).belowHeader).toBeGreaterThanOrEqual(0);
    // And by keyboard: Tab from the top to the last button.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('heading', { name: 'Nastavenia – Bezpečnosť' }).click();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await signOut.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    const c = await signOut.evaluate(clearance);
    expect(c.aboveNav).toBeGreaterThanOrEqual(0);
    expect(c.belowHeader).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: 'e2e/artifacts/screenshots/focus-not-obscured-phone.png' });
  });
});

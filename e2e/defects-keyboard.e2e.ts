// Issue 21, user area item 9: one Tab stop per conversation row (the row, not 'Archivovať' first);
// the action opens from the keyboard with ArrowLeft and no row stays slid open once focus leaves it.
import { expect, test } from '@playwright/test';
import { DESKTOP, signIn } from './defects-helpers.ts';

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

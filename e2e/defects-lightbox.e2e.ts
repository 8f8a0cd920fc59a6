// Issue 21, user area item 8: after a tap on the image or a mouse swipe the lightbox still hears
// Escape and the arrows; its backdrop is opaque and its counter sits clear of the chat header.
import { expect, test } from '@playwright/test';
import { PHONE, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE });

const LUCIA = '00000000-0000-4000-b000-000000000002';

test('keys keep working after a click on the image and a mouse swipe; the backdrop is opaque', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto(`/app/chats/${LUCIA}`);
  await page.getByRole('button', { name: /Obrázok 1|jarna-kampan/ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Galéria obrázkov' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('1 / 2');
  expect(await dialog.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');

  // A click on the image itself, then the arrow key.
  await dialog.locator('img').click();
  await page.keyboard.press('ArrowRight');
  await expect(dialog).toContainText('2 / 2');
  // A mouse swipe (right: back to the first), then the arrow key again.
  const box = (await dialog.locator('img').boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 160, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect(dialog).toContainText('1 / 2');
  await page.keyboard.press('ArrowLeft');
  await expect(dialog).toContainText('2 / 2');
  await shootBoth(page, 'lightbox');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

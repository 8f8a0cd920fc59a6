// Sign-out deletes this device's database (R1.11): with a message still in the outbox the first press
// only warns, with the count; staying keeps the message, which is then delivered once, and the next
// press signs out at once.
import { expect, test } from '@playwright/test';
import { serverCount } from './pwa-helpers.ts';
import { storeSession } from './stored-session.ts';

const DRUHY_CHAT = '00000000-0000-4000-b000-000000000011';

test('sign-out with an unsent message warns first; staying keeps and delivers it', async ({ page, context, baseURL }) => {
  await storeSession(page, 'druhy@poradna.test');
  await page.goto(`/app/chats/${DRUHY_CHAT}`);
  await expect(page.getByTestId('message').first()).toBeVisible();

  await context.setOffline(true);
  const text = `Neodoslaná pred odhlásením ${Date.now()}`;
  const composer = page.getByRole('textbox', { name: 'Správa' });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');

  // The chat is full screen: back to the list (client-side, offline), then to the settings tab.
  await page.getByRole('link', { name: 'Späť' }).click();
  await page.getByRole('navigation', { name: 'Hlavná navigácia' }).getByRole('link', { name: 'Nastavenia' }).click();
  await expect(page).toHaveURL(/\/app\/settings$/);
  await page.getByRole('button', { name: 'Odhlásiť sa', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'nebola odoslaná' });
  await expect(alert).toContainText('1 správa ešte nebola odoslaná. Po odhlásení sa z tohto zariadenia stratí. Pripoj sa k internetu a počkaj, kým sa odošle.');
  await expect(page.getByRole('button', { name: 'Zostať prihlásený' })).toBeFocused();
  await expect(page).toHaveURL(/\/app\/settings$/); // nothing was signed out

  await page.getByRole('button', { name: 'Zostať prihlásený' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Odhlásiť sa', exact: true })).toBeVisible();

  await context.setOffline(false);
  await expect.poll(() => serverCount(baseURL!, text), { timeout: 30_000 }).toBe(1);
  // Once the outbox is empty the warning is not shown: one press signs out.
  await expect(async () => {
    await page.getByRole('button', { name: 'Odhlásiť sa', exact: true }).click();
    await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('Odhlásený')).toBeVisible();
  expect(await serverCount(baseURL!, text)).toBe(1);
});

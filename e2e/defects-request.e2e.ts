// Issue 21, user area item 12: 'Žiadosť odoslaná {name}' appears only once the request message is
// sent, never while it still says 'Odosiela sa…'; a request that waits (offline) says so instead.
import { expect, test } from '@playwright/test';
import { PHONE, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE, hasTouch: true });

test('the request toast waits for the message to be sent', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto('/app/specialists');
  const card = page.getByTestId('specialist').filter({ has: page.getByRole('button', { name: 'Požiadať o špecialistu' }) }).first();
  const name = (await card.getByRole('heading').textContent())!.trim();
  // The server takes 4 s to accept the message.
  await page.route('**/rest/v1/rpc/send_message', async (route) => {
    await new Promise((r) => setTimeout(r, 4_000));
    await route.continue();
  });
  await card.getByRole('button', { name: 'Požiadať o špecialistu' }).click();
  await expect(page).toHaveURL(/\/app\/chats\//, { timeout: 15_000 });
  const request = page.locator('[data-testid="message"][data-own="true"]', { hasText: `Mám záujem o vytvorenie projektu s ${name}` }).last();
  await expect(request).toHaveAttribute('data-state', 'sending');
  await expect(page.getByText(`Žiadosť odoslaná ${name}`)).toHaveCount(0);
  await expect(request).toHaveAttribute('data-state', 'sent', { timeout: 15_000 });
  await expect(page.getByText(`Žiadosť odoslaná ${name}`)).toBeVisible();
  await shootBoth(page, 'request-sent');
});

test('a request made offline says it waits for the network, and then that it was sent', async ({ page, context }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto('/app/specialists');
  const card = page.getByTestId('specialist').filter({ has: page.getByRole('button', { name: 'Požiadať o špecialistu' }) }).first();
  const name = (await card.getByRole('heading').textContent())!.trim();
  await context.setOffline(true);
  await card.getByRole('button', { name: 'Požiadať o špecialistu' }).click();
  await expect(page).toHaveURL(/\/app\/chats\//, { timeout: 15_000 });
  const request = page.locator('[data-testid="message"][data-own="true"]', { hasText: `Mám záujem o vytvorenie projektu s ${name}` }).last();
  await expect(request).toHaveAttribute('data-state', 'sending');
  const waits = page.getByText(`Žiadosť pre ${name} sa odošle po pripojení`);
  await expect(waits).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(`Žiadosť odoslaná ${name}`)).toHaveCount(0);
  await shootBoth(page, 'request-waits-offline');
  await context.setOffline(false);
  await expect(request).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  // The same toast now says the outcome: the 'it waits' line is not left beside it.
  await expect(page.getByText(`Žiadosť odoslaná ${name}`)).toBeVisible({ timeout: 10_000 });
  await expect(waits).toHaveCount(0);
});

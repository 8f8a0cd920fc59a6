// Issue 21, user area items 4 and 7: the composer after a failed send to an AI specialist stays open
// (no typing dots, no 'Čaká sa na odpoveď…'); offline the header does not say 'online' and no typing
// shows; a conversation that does not exist gets a disabled composer.
import { expect, test, type Page } from '@playwright/test';
import { composerReady, PHONE, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE, hasTouch: true });

const MARTIN = '00000000-0000-4000-b000-000000000003';
const composer = (page: Page) => page.getByRole('textbox', { name: 'Správa' });

test('a refused send leaves the composer open, without typing dots', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto(`/app/chats/${MARTIN}`);
  await composerReady(page);
  await page.route('**/rest/v1/rpc/send_message', (r) => r.fulfill({ status: 400, contentType: 'application/json', body: '{"code":"22023","message":"refused"}' }));
  await composer(page).fill('Táto správa zlyhá');
  await composer(page).press('Enter');
  const failed = page.locator('[data-testid="message"][data-state="failed"]', { hasText: 'Táto správa zlyhá' });
  await expect(failed).toBeVisible();
  // The dots and the waiting placeholder never show for a failed message, also not a moment later.
  await page.waitForTimeout(1500);
  await expect(page.getByText('Špecialista píše…')).toHaveCount(0);
  await expect(composer(page)).toBeEnabled();
  await expect(page.locator('form[data-mode]')).toHaveAttribute('data-mode', 'ready');
  await expect(composer(page)).toHaveAttribute('placeholder', 'Napísať správu…');
  await shootBoth(page, 'send-failed');
});

test('offline: no green online, no typing dots for a queued message', async ({ page, context }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto(`/app/chats/${MARTIN}`);
  await expect(page.getByTestId('chat-presence')).toHaveText('online');
  await composerReady(page);
  await context.setOffline(true);
  await expect(page.getByTestId('chat-presence')).toHaveCount(0);
  await composer(page).fill('Offline otázka');
  await composer(page).press('Enter');
  await expect(page.locator('[data-testid="message"][data-own="true"]', { hasText: 'Offline otázka' })).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(page.getByText('Špecialista píše…')).toHaveCount(0);
  await expect(composer(page)).toBeEnabled();
  await shootBoth(page, 'chat-offline');
  await context.setOffline(false);
  await expect(page.getByTestId('chat-presence')).toHaveText('online');
});

test('an unknown conversation has a disabled composer', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto('/app/chats/00000000-0000-4000-b000-00000000ffff');
  await expect(page.getByText('Táto konverzácia neexistuje alebo k nej nemáte prístup.')).toBeVisible({ timeout: 15_000 });
  await expect(composer(page)).toBeDisabled();
  await shootBoth(page, 'chat-missing');
});

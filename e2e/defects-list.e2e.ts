// Issue 21, user area items 6, 13 and 15 on the conversation list: a first load that fails shows one
// state (the spec's 'Nepodarilo sa načítať konverzácie', no loading text, no archived count); a filter
// that finds nothing says so in Slovak; toasts leave the header and search box free on phones; the
// cut-off filter row says it scrolls.
import { expect, test } from '@playwright/test';
import { PHONE, freshUser, shootBoth, signIn } from './defects-helpers.ts';

test.use({ viewport: PHONE, hasTouch: true });

test('a failing first load shows the load-failure banner alone', async ({ page, baseURL }) => {
  const user = await freshUser(baseURL!, 'nacitanie');
  await page.route('**/rest/v1/rpc/sync_pull', (r) =>
    r.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' }),
  );
  await signIn(page, user.email);
  const banner = page.getByTestId('load-error-banner');
  await expect(banner).toBeVisible({ timeout: 20_000 });
  await expect(banner).toContainText('Nepodarilo sa načítať konverzácie');
  await expect(banner).not.toContainText('po obnovení pripojenia');
  await expect(page.getByText('Načítavam konverzácie...')).toHaveCount(0);
  await expect(page.getByTestId('archived-row')).toHaveCount(0);
  await shootBoth(page, 'list-load-failed');
  await page.unrouteAll();
  await banner.getByRole('button', { name: 'Skúsiť znova' }).click();
  await expect(page.getByTestId('conversation-row')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('archived-row')).toBeVisible();
});

test('an empty filter says so in Slovak; toasts leave the header free; the chip row hints it scrolls', async ({
  page,
  baseURL,
}) => {
  const user = await freshUser(baseURL!, 'filter');
  await signIn(page, user.email);
  await expect(page.getByTestId('conversation-row')).toHaveCount(1, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Ukončené' }).click();
  await expect(page.getByTestId('empty-state')).toHaveText('V tomto filtri nie sú žiadne konverzácie');
  await page.getByRole('searchbox', { name: 'Hľadať konverzáciu' }).fill('nic-take');
  await expect(page.getByTestId('empty-state')).toHaveText('No conversations match your search');

  // A toast (the failed start of item 3 is one) does not cover the header or the search box.
  await page.route('**/functions/v1/start-conversation', (r) => r.fulfill({ status: 503, body: '{}' }));
  await page.route('**/rest/v1/rpc/start_conversation', (r) => r.fulfill({ status: 503, body: '{}' }));
  await page.goto('/app/specialists');
  await page.getByRole('button', { name: 'Chatovať' }).first().click();
  const toast = page.locator('[data-sonner-toast]');
  await expect(toast).toBeVisible({ timeout: 15_000 });
  const header = (await page.locator('header').first().boundingBox())!;
  const nav = (await page.getByRole('navigation').last().boundingBox())!;
  // Judged where the toast comes to rest: sonner slides it in from below for ~400 ms.
  await expect
    .poll(
      async () => {
        const t = (await toast.boundingBox())!;
        return t.y > header.y + header.height && t.y + t.height <= nav.y;
      },
      { timeout: 5_000 },
    )
    .toBe(true);
  await shootBoth(page, 'toast-position');

  // 360 px: the chips do not all fit; the row says there is more to the right.
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto('/app/chats');
  const chips = page.getByRole('group', { name: 'Filter konverzácií' });
  const overflowing = await chips.evaluate((el) => el.scrollWidth > el.clientWidth);
  await expect(chips).toHaveAttribute('data-more', String(overflowing));
  await page.screenshot({ path: 'e2e/artifacts/screenshots/chips-360.png' });
});

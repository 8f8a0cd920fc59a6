// Issue 21, user area item 10: WCAG AA contrast, checked by axe-core (color-contrast, WCAG 2 AA) on
// the screens a user walks, including the own bubble with a link and a row's revealed 'Archivovať'.
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './axe-helpers.ts';
import { composerReady, PHONE, signIn } from './defects-helpers.ts';

// axe is injected as an inline script, which the app's CSP (rightly) refuses: bypass it for the probe only.
test.use({ viewport: PHONE, hasTouch: true, bypassCSP: true });

const contrastViolations = (page: Page) => axeViolations(page, { rule: 'color-contrast' });

test('own bubble links and the revealed archive action meet AA contrast', async ({ page }) => {
  // Sign-in and contrast passes over two screens: 51 s in the clean-clone run of 2026-11-29 under
  // the suite's load. Each wait keeps its own bound; this is the sum's.
  test.setTimeout(120_000);
  await signIn(page, 'demo@poradna.test');
  const conversationId = '00000000-0000-4000-b000-000000000003';
  await page.goto(`/app/chats/${conversationId}`);
  const box = page.getByRole('textbox', { name: 'Správa' });
  await composerReady(page);
  // A text of its own per run, so a retry never meets the first attempt's bubble.
  const label = `môj web ${Date.now().toString(36)}`;
  await box.fill(`Pozrite [${label}](https://zrnko.sk) prosím`);
  await box.press('Enter');
  await expect(
    page.locator('[data-testid="message"][data-own="true"] .markdown a', { hasText: label }),
  ).toBeVisible();
  // A sending copy is at 70 % opacity by the spec; contrast is judged on the sent bubble.
  await expect(page.locator('[data-testid="message"][data-own="true"]', { hasText: label })).toHaveAttribute(
    'data-state',
    'sent',
    { timeout: 15_000 },
  );
  await page.screenshot({ path: 'e2e/artifacts/screenshots/own-link-phone.png' });
  expect(await contrastViolations(page)).toEqual([]);

  await page.goto('/app/chats');
  const row = page.getByTestId('conversation-row').first();
  await expect(row).toBeVisible();
  const b = (await row.boundingBox())!;
  await page.mouse.move(b.x + b.width - 40, b.y + b.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(b.x + b.width - 40 - (70 * i) / 6, b.y + b.height / 2);
  await page.mouse.up();
  await expect(page.getByRole('button', { name: 'Archivovať' }).first()).toBeVisible();
  expect(await contrastViolations(page)).toEqual([]);
  await page.screenshot({ path: 'e2e/artifacts/screenshots/archive-revealed-phone.png' });

  for (const path of ['/app/specialists', '/app/settings', '/app/archived']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await contrastViolations(page), path).toEqual([]);
  }
});

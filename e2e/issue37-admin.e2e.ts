// Issue 37, admin items 3 and 4: the test runner counts not-configured checks apart and never calls
// them passed, its output box is reachable by keyboard; the accounts heading shows a count only once
// it is known; deleting a user asks in the product's own dialog, not the browser's confirm().
import { expect, type Page } from '@playwright/test';
import { DESKTOP, PHONE, shoot } from './admin-defects-helpers.ts';
import { axeViolations } from './axe-helpers.ts';
import { signInAdmin, sql, testAtOrigin as test, toast } from './admin-helpers.ts';
import { freshUser } from './defects-helpers.ts';
import { ADMIN } from './admin-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ bypassCSP: true });

/** Every text the accounts heading ever showed in this document, recorded from before the app runs. */
async function recordHeadings(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __headings: string[] }).__headings = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="accounts-heading"]')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

test("'Test Edge Functions' counts not-configured checks apart; the output box takes focus", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await storeSession(page, ADMIN.email, { password: ADMIN.password });
  await page.goto('/admin/tests');
  await page.getByRole('button', { name: 'Test Edge Functions' }).click();
  const run = page.locator('[data-testid="test-run"][data-type="edge"]');
  await expect(run).not.toHaveAttribute('data-status', 'running', { timeout: 50_000 });
  // The local stack has no Chatwoot: its checks are not configured, so the run is not 'Passed'.
  await expect(run).toHaveAttribute('data-status', 'not-configured');
  await expect(run.getByTestId('run-status')).toHaveText('Nenakonfigurované');
  await expect(run.getByTestId('run-not-configured')).toHaveText(/^Nenakonfigurované: [1-9]\d*$/);
  await expect(toast(page, /Prešlo \d+ z \d+, nenakonfigurované: \d+/)).toBeVisible();
  await expect(page.getByText(/tests passed successfully!/)).toHaveCount(0);
  const output = run.getByTestId('run-output');
  await output.focus();
  await expect(output).toBeFocused();
  await expect(output).toHaveAccessibleName('Výstup testov Edge Functions');
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'issue37-test-runner-desktop');
});

for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
  test(`accounts: no 'Účty (0)' while loading; deleting asks in an accessible dialog (${size})`, async ({ page, baseURL }) => {
    const user = await freshUser(baseURL!, `e2e-zmazat-${size}`);
    await page.setViewportSize(viewport);
    await signInAdmin(page);
    await recordHeadings(page);
    await page.goto('/admin/accounts');
    const heading = page.getByTestId('accounts-heading');
    await expect(heading).toHaveText(/^Účty \([1-9]\d*\)$/);
    const headings = await page.evaluate(() => (window as unknown as { __headings: string[] }).__headings);
    expect(headings).not.toContain('Účty (0)');

    await page.getByRole('searchbox').fill(user.email);
    const row = page.getByTestId('account-row').filter({ hasText: user.email });
    await expect(row).toHaveCount(1);
    let nativeDialog = false;
    page.on('dialog', (d) => {
      nativeDialog = true;
      void d.dismiss();
    });
    await row.getByRole('button', { name: 'Vymazať' }).click();
    const dialog = page.getByRole('dialog', { name: 'Vymazať používateľa?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(user.email);
    await expect(dialog.getByRole('button', { name: 'Zrušiť' })).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, `issue37-delete-dialog-${size}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(row).toHaveCount(1);

    await row.getByRole('button', { name: 'Vymazať' }).click();
    await dialog.getByRole('button', { name: 'Vymazať' }).click();
    await expect(toast(page, `Používateľ ${user.email} bol úspešne vymazaný`)).toBeVisible();
    await expect(row).toHaveCount(0);
    expect(nativeDialog).toBe(false);
  });
}

test("another account's settings: read-only specialist cards legible (no faded text, axe clean), no header plan badge of the admin's own", async ({ page, baseURL }) => {
  const user = await freshUser(baseURL!, 'e2e-default-karty');
  const [account] = await sql<{ id: string }>('select account_id as id from public.account_users where user_id = $1', [user.id]);
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(viewport);
    if (size === 'desktop') await signInAdmin(page);
    await page.goto(`/admin/accounts/${account!.id}/settings`);
    const cards = page.getByTestId('specialist-card');
    await expect(cards.first()).toBeVisible();
    await expect(cards.first().getByRole('checkbox')).toBeDisabled();
    // The header's badge is the admin's own plan: not shown on another account's page.
    await expect(page.getByTestId('plan-badge')).toHaveCount(0);
    const faded = await cards.evaluateAll((els) => els.filter((el) => Number(getComputedStyle(el).opacity) < 1).length);
    expect(faded).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, `issue37-default-cards-${size}`);
  }
});

test('Chatwoot not configured: assign, status, send and the specialists check name that cause first', async ({ page }) => {
  const CAUSE = 'Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo API token), akciu nemožno vykonať.';
  await page.setViewportSize(DESKTOP);
  await storeSession(page, ADMIN.email, { password: ADMIN.password });
  await page.goto('/admin/chatwoot');
  const actions = page.getByTestId('cw-actions');
  await actions.getByLabel(/ID konverzácie v Chatwoote/).fill('12');
  await actions.getByRole('button', { name: 'Priradiť' }).click();
  await expect(toast(page, CAUSE)).toBeVisible();
  await actions.getByRole('button', { name: 'Zmeniť stav' }).click();
  await expect(toast(page, CAUSE)).toBeVisible();
  await expect(page.getByText('Backend endpoint bude implementovaný v fáze 3.8')).toHaveCount(0);

  const send = page.getByTestId('cw-send');
  await send.getByRole('combobox').selectOption({ index: 1 });
  await send.getByLabel('Správa').fill('Ahoj');
  await send.getByRole('button', { name: 'Odoslať' }).click();
  await expect(toast(page, CAUSE)).toBeVisible();
  await expect(page.getByText('Špecialista nemá priradený Chatwoot Inbox ID')).toHaveCount(0);

  const panel = page.getByTestId('cw-control-panel');
  await panel.getByRole('button', { name: 'Spustiť všetky kontroly' }).click();
  await expect(panel.getByTestId('check-api')).toHaveAttribute('data-status', 'notConfigured');
  await expect(panel.getByTestId('check-specialists')).toHaveAttribute('data-status', 'notConfigured');
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'issue37-chatwoot-not-configured-desktop');
});

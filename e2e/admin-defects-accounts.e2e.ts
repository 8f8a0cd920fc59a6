// Issue 21, admin items 2, 8, 10 and 12 on the accounts list and account settings: a failed load is an
// error state with 'Skúsiť znova' (never the empty state with its create button); desktop is a
// full-width table whose headers sort by mouse and keyboard (aria-sort) and stick under the app header;
// the phone has no sideways scroll to reach the actions; no emoji glyphs; Slovak labels; turning
// 'Default režim' off asks first and Cancel changes nothing.
import { expect, test } from '@playwright/test';
import { DESKTOP, PHONE, expectWithinViewport, glyphsInText, scrollsSideways, shoot, signInAdmin } from './admin-defects-helpers.ts';
import { axeViolations } from './axe-helpers.ts';
import { sql, toast } from './admin-helpers.ts';
import { freshUser } from './defects-helpers.ts';
import { ADMIN } from './admin-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ bypassCSP: true });

test('a failed accounts load shows the error state with a retry, not the empty state', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInAdmin(page);
  // The view answers 500 (as PostgREST does when the database fails) until the retry.
  let fail = true;
  await page.route('**/rest/v1/v_admin_accounts*', async (route) => {
    if (fail) await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'XX000', message: 'boom', details: null, hint: null }) });
    else await route.fallback();
  });
  await page.goto('/admin/accounts');
  const failed = page.getByTestId('admin-load-failed');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('Nepodarilo sa načítať účty z databázy');
  await expect(toast(page, 'Nepodarilo sa načítať účty z databázy')).toBeVisible();
  await expect(page.getByText('Zatiaľ neexistujú žiadne účty')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Vytvoriť účet|Create account/ })).toHaveCount(0);
  await expect(page.getByTestId('accounts-heading')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'accounts-failed-phone');
  await page.setViewportSize(DESKTOP);
  await shoot(page, 'accounts-failed-desktop');

  fail = false;
  await failed.getByRole('button', { name: 'Skúsiť znova' }).click();
  await expect(page.getByTestId('account-row').first()).toBeVisible();
  await expect(failed).toHaveCount(0);
});

test('desktop: full-width table, headers sort by keyboard with aria-sort, the head sticks, Slovak labels', async ({ page, baseURL }) => {
  // Enough accounts that the page scrolls at 800 px.
  for (let i = 0; i < 12; i += 1) await freshUser(baseURL!, 'e2e-admin-list');
  await page.setViewportSize(DESKTOP);
  await storeSession(page, ADMIN.email, { password: ADMIN.password });
  await page.goto('/admin/accounts');
  const table = page.getByTestId('accounts-table');
  await expect(page.getByTestId('account-row').first()).toBeVisible();

  // Full width: the table spans the content (not a 768 px column).
  const box = (await table.boundingBox())!;
  expect(box.width).toBeGreaterThan(1150);

  // Slovak headers and buttons; no pill sort buttons on desktop.
  for (const h of ['Účet', 'Špecialisti', 'Posledná aktivita', 'Akcie']) await expect(page.getByRole('columnheader', { name: h })).toBeVisible();
  for (const b of ['Nastavenia', 'Impersonovať', 'Vymazať']) await expect(page.getByTestId('account-row').getByRole('button', { name: b }).first()).toBeVisible();
  for (const english of ['Settings', 'Impersonate', 'Delete', 'Actions', 'Last activity', 'Create account']) {
    await expect(page.getByRole('main').getByText(english, { exact: true })).toHaveCount(0);
  }
  await expect(page.locator('button[aria-pressed]')).toHaveCount(0);

  // Keyboard: Tab reaches the Account header's button, Enter and Space sort.
  const account = page.getByRole('columnheader', { name: 'Účet' });
  const activity = page.getByRole('columnheader', { name: 'Posledná aktivita' });
  await expect(account).toHaveAttribute('aria-sort', 'ascending');
  await expect(activity).toHaveAttribute('aria-sort', 'none');
  const names = () => page.getByTestId('account-name').allTextContents();
  const ascending = await names();
  await page.getByRole('searchbox').focus();
  await page.keyboard.press('Tab');
  await expect(account.getByRole('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(account).toHaveAttribute('aria-sort', 'descending');
  expect(await names()).toEqual([...ascending].reverse());
  await page.keyboard.press('Space');
  await expect(account).toHaveAttribute('aria-sort', 'ascending');
  // Another column starts ascending; the first goes back to unsorted.
  await activity.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(activity).toHaveAttribute('aria-sort', 'ascending');
  await expect(account).toHaveAttribute('aria-sort', 'none');
  // The direction is an SVG icon, not an arrow glyph.
  await expect(activity.locator('svg[data-icon="sortAsc"]')).toHaveCount(1);
  expect(await glyphsInText(page)).toEqual([]);

  // Sticky head: scrolled down, it rests right under the app header.
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  const header = (await page.locator('header').first().boundingBox())!;
  const head = (await page.getByTestId('accounts-thead').boundingBox())!;
  expect(Math.abs(head.y - (header.y + header.height))).toBeLessThanOrEqual(2);
  await page.screenshot({ path: 'e2e/artifacts/screenshots/admin/accounts-desktop-scrolled.png', animations: 'disabled' });
  await page.mouse.wheel(0, -2000);

  expect(await scrollsSideways(page)).toBe(false);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'accounts-desktop');
});

test('phone: one card per account, every action reachable without a sideways scroll', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await storeSession(page, ADMIN.email, { password: ADMIN.password });
  await page.goto('/admin/accounts');
  const rows = page.getByTestId('account-row');
  await expect(rows.first()).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
  const demo = rows.filter({ hasText: 'demo@poradna.test' });
  for (const name of ['Nastavenia', 'Impersonovať', 'Vymazať']) await expectWithinViewport(page, demo.getByRole('button', { name }));
  // Sorting on the phone: the two toggles, the direction in words for screen readers.
  const nameSort = page.getByRole('group', { name: 'Zoradiť podľa' }).getByRole('button', { name: /^Názov/ });
  await expect(nameSort).toHaveAttribute('aria-pressed', 'true');
  await expect(nameSort.getByRole('img', { name: 'vzostupne' })).toBeVisible();
  await nameSort.click();
  await expect(nameSort.getByRole('img', { name: 'zostupne' })).toBeVisible();
  expect(await glyphsInText(page)).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'accounts-phone');
});

test("turning 'Default režim' off asks first, says how many specialists stay; Cancel changes nothing", async ({ page, baseURL }) => {
  const user = await freshUser(baseURL!, 'e2e-admin-mode');
  const [account] = await sql<{ id: string; specialists_mode: string }>(
    'select a.id, a.specialists_mode from public.accounts a join public.account_users au on au.account_id = a.id where au.user_id = $1',
    [user.id],
  );
  expect(account!.specialists_mode).toBe('DEFAULT');
  const active = (await sql<{ n: number }>('select count(*)::int as n from public.get_active_specialists($1)', [account!.id]).catch(() => [{ n: -1 }]))[0]!.n;

  await page.setViewportSize(DESKTOP);
  await storeSession(page, ADMIN.email, { password: ADMIN.password });
  await page.goto(`/admin/accounts/${account!.id}/settings`);
  await expect(page.getByRole('heading', { name: /^Nastavenia účtu: / })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Uložiť zmeny' })).toBeDisabled();
  const modeSwitch = page.getByRole('switch', { name: 'Default režim' });
  const assigned = await page.getByTestId('assigned-count').textContent();
  if (active >= 0) expect(Number(assigned)).toBe(active);

  // Cancel: nothing changes, on screen or on the server.
  await modeSwitch.click();
  const dialog = page.getByRole('dialog', { name: 'Vypnúť Default režim?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Teraz má účet ${assigned}`);
  await expect(dialog.getByTestId('confirm-kept')).toHaveText('0');
  await expect(dialog.getByRole('button', { name: 'Zrušiť' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'settings-confirm-desktop');
  await page.setViewportSize(PHONE);
  await shoot(page, 'settings-confirm-phone');
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Zrušiť' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(modeSwitch).toHaveAttribute('aria-checked', 'true');
  await expect(modeSwitch).toBeFocused();
  await expect(page.getByTestId('mode-badge')).toHaveText('Default');
  await expect(page.getByTestId('assigned-count')).toHaveText(assigned ?? '');
  // Escape cancels too.
  await modeSwitch.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect((await sql<{ specialists_mode: string }>('select specialists_mode from public.accounts where id = $1', [account!.id]))[0]!.specialists_mode).toBe('DEFAULT');

  // Confirm: Custom, with the count the dialog announced.
  await modeSwitch.click();
  await dialog.getByRole('button', { name: 'Vypnúť Default režim' }).click();
  await expect(toast(page, 'Účet teraz používa Custom režim')).toBeVisible();
  await expect(page.getByTestId('mode-badge')).toHaveText('Custom');
  await expect(page.getByTestId('assigned-count')).toHaveText('0');
  await expect.poll(async () => (await sql<{ specialists_mode: string }>('select specialists_mode from public.accounts where id = $1', [account!.id]))[0]!.specialists_mode).toBe('CUSTOM');

  expect(await glyphsInText(page)).toEqual([]);
  await shoot(page, 'settings-desktop');
  await page.setViewportSize(PHONE);
  expect(await scrollsSideways(page)).toBe(false);
  await shoot(page, 'settings-phone');
});

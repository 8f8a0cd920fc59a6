// Issue 21, user area item 13: while impersonating, the plan badge shows the impersonated account's
// plan (or 'Loading...'), never the placeholder 'UNKNOWN'.
import { expect, test } from '@playwright/test';
import { PHONE, rest, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE, hasTouch: true });

test('the plan badge while impersonating is the real plan, not UNKNOWN', async ({ page, baseURL }) => {
  const accounts = (await rest(baseURL!, 'accounts?select=id,plan,owner_email&owner_email=eq.druhy@poradna.test')) as { plan: string }[];
  const plan = accounts[0]!.plan;
  await storeSession(page, 'admin@poradna.test');
  await page.goto('/admin/accounts');
  await page.getByRole('searchbox').fill('druhy@');
  await expect(page.getByTestId('account-row')).toHaveCount(1);
  await page.getByTestId('account-row').getByRole('button', { name: 'Impersonovať' }).click();
  await expect(page).toHaveURL(/\/app\/chats$/);
  const badge = page.getByTestId('plan-badge');
  await expect(badge).toHaveText(plan, { timeout: 15_000 });
  await expect(badge).not.toHaveText('UNKNOWN');
  await shootBoth(page, 'impersonating-plan');
  await page.getByRole('button', { name: 'Stop impersonating' }).click();
  await expect(page.getByText('Impersonating:')).toHaveCount(0);
});

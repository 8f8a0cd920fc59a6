import { expect, test } from '@playwright/test';

test('a demo member signs in with a password', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('E-mail').fill('demo@poradna.test');
  await page.getByLabel('Heslo').fill('poradna123');
  await page.getByRole('button', { name: 'Prihlásiť' }).click();
  await expect(page.getByText('Prihlásený ako demo@poradna.test')).toBeVisible();
});

test('a wrong password shows the Slovak error', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('E-mail').fill('demo@poradna.test');
  await page.getByLabel('Heslo').fill('zle-heslo-1');
  await page.getByRole('button', { name: 'Prihlásiť' }).click();
  await expect(page.getByRole('alert')).toHaveText('Nesprávny e-mail alebo heslo.');
});

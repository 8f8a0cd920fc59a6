// The installable PWA: the service worker installs at /sw.js with scope /, controls the page, and a
// cold reload with the network off still renders the app from the precache; Chromium reports no
// installability errors for the manifest.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { signIn } from './defects-helpers.ts';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './playwright.config.ts';

async function waitForControl(page: Page): Promise<string> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration('/');
    return `${reg?.scope ?? ''} ${navigator.serviceWorker.controller?.scriptURL ?? ''}`;
  });
}

test('the service worker controls the app and a cold offline reload renders the shell', async ({ page, context, baseURL }) => {
  await signIn(page, 'demo@poradna.test');
  const where = await waitForControl(page);
  expect(where).toBe(`${baseURL}/ ${baseURL}/sw.js`);

  await page.goto('/app/chats');
  const row = page.locator('a[href^="/app/chats/"]').first();
  await expect(row).toBeVisible();
  const href = (await row.getAttribute('href'))!;
  const rowText = (await row.innerText()).split('\n')[0]!;

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('a[href^="/app/chats/"]').first()).toBeVisible();
  await expect(page.getByText(rowText).first()).toBeVisible();
  await page.goto(href);
  await page.reload();
  await expect(page.getByRole('textbox')).toBeVisible();
  await expect(page.getByText('Nepodarilo sa načítať správy')).toHaveCount(0);
  await page.goto('/app/settings');
  await page.reload();
  await expect(page.getByRole('navigation').getByText('Nastavenia')).toBeVisible();
  await context.setOffline(false);
});

// Installability is judged only outside incognito, so this test uses a persistent profile.
test('the manifest is installable', async ({ baseURL }) => {
  const profile = await mkdtemp(join(tmpdir(), 'poradna-pwa-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
    ...(baseURL ? { baseURL } : {}),
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/auth/login');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { start_url: string; icons: unknown[] };
    expect(manifest.start_url).toBe('/app/chats');
    expect(manifest.icons).toHaveLength(3);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

// Shared steps of the PWA journeys: a persistent Chromium profile, signing in until the service worker
// controls the page, the server's count of a message (service key), and CDP's view of the worker.
import { chromium, expect, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './playwright.config.ts';
import { signIn } from './defects-helpers.ts';

/** A phone-sized persistent profile (a device); `env`: the browser process's environment, when it needs its own. */
export async function launchProfile(profile: string, baseURL: string, env?: Record<string, string | undefined>): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
    baseURL,
    viewport: { width: 360, height: 640 },
    locale: 'sk-SK',
    ...(env ? { env } : {}),
  });
}

/**
 * Signs in and waits until the service worker is active (not yet controlling this page). The landing
 * gets 30 s: on a fresh profile the worker's install competes with the sign-in for the page.
 */
export async function signInActive(page: Page, email = 'demo@poradna.test'): Promise<void> {
  await signIn(page, email, { lands: /\/app\/chats/, timeout: 30_000 });
  // Bounded (an evaluate of `navigator.serviceWorker.ready` is not): a worker that never activates
  // fails here, by name, instead of holding the test until its own limit.
  await expect
    .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration('/'))?.active), { timeout: 30_000 })
    .toBe(true);
}

/** Signs in until the service worker controls the page (one reload when the first load was not controlled). */
export async function signInControlled(page: Page, email = 'demo@poradna.test'): Promise<void> {
  await signInActive(page, email);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** Opens the first conversation of the list; returns its path. */
export async function openFirstChat(page: Page): Promise<string> {
  const row = page.getByTestId('conversation-row').first();
  await expect(row).toBeVisible();
  await row.click();
  await page.waitForURL(/\/app\/chats\/[^/]+$/);
  await expect(page.getByTestId('message').first()).toBeVisible();
  return new URL(page.url()).pathname;
}

export async function sendFromComposer(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Správa' });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
}

export const ownBubble = (page: Page, text: string) => page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });

/** How many stored messages have this text, as the service role sees them (-1 while the server is down);
 *  the key defaults to the suite stack's (global-setup.ts), a journey on its own stack passes that one's. */
export async function serverCount(baseURL: string, text: string, serviceKey = process.env.E2E_SERVICE_KEY ?? ''): Promise<number> {
  const res = await fetch(`${baseURL}/rest/v1/messages?select=id&text=eq.${encodeURIComponent(text)}`, {
    headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` },
  });
  if (!res.ok) return -1;
  return ((await res.json()) as unknown[]).length;
}

/** The origin's service-worker registration id, as CDP's ServiceWorker domain reports it. */
export async function registrationId(cdp: CDPSession, origin: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const r = e.registrations.find((x) => !x.isDeleted && x.scopeURL === `${origin}/`);
      if (r) resolve(r.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}

/** Fires the Background Sync event in the worker, as the browser would when the network returns. */
export async function dispatchSync(cdp: CDPSession, origin: string, regId: string, tag = 'poradna-outbox'): Promise<void> {
  await cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId: regId, tag, lastChance: false });
}

/** The Background Sync tags the page's service worker registration holds (Chromium). */
export async function syncTags(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.getRegistration('/')) as (ServiceWorkerRegistration & { sync?: { getTags(): Promise<string[]> } }) | undefined;
    return (await reg?.sync?.getTags()) ?? [];
  });
}

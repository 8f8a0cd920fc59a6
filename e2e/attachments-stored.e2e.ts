// Issue 38, a sent photo once the server has it (Debian Chromium, real stack, the built service
// worker): its local blob is released (R12.8), so the bubble and the lightbox show the stored object
// through signed URLs; the service worker keeps what it showed by object address
// (sw/attachment-cache.ts), so after a reload with the network off both still open; sign-out drops
// that cache. And the user's other device (another browser context) gets the photo through the feed
// and opens it in the lightbox.
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { freshChat, PHONE, SHOTS, signIn } from './defects-helpers.ts';
import { composer, openChat, ownBubble, pick, twoColourJpeg } from './attachment-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE, hasTouch: true });

const DESKTOP = { width: 1440, height: 900 };

/** A 1200 × 800 JPEG drawn by the browser (left half green, right half magenta). */
const photo = (page: Page) => twoColourJpeg(page, { width: 1200, height: 800 }, { left: '#00a000', right: '#c000c0' });

/** Waits until the service worker controls the page (one reload when the first load was not controlled). */
async function controlled(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration('/'))?.active), { timeout: 30_000 }).toBe(true);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** The image has decoded (a broken or empty one has naturalWidth 0). */
async function expectPainted(img: Locator): Promise<void> {
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0))).toBeGreaterThan(0);
}

/** Opens the bubble's photo in the lightbox and waits for the full image; closes it again. */
async function lightbox(page: Page, bubble: Locator, shot?: string): Promise<string> {
  await bubble.getByRole('button', { name: 'fotka.jpg' }).click();
  const img = page.getByRole('dialog').locator('img');
  // The lightbox shows the thumbnail until the full image's address is known (ImageGallery's slides):
  // wait for the full one (signed online, its bare address offline), and for it to be painted.
  await expect(img).toHaveAttribute('src', /\/fotka\.jpg(\?token=|$)/);
  await expectPainted(img);
  const src = (await img.getAttribute('src'))!;
  if (shot) await page.screenshot({ path: `${SHOTS}/${shot}`, animations: 'disabled' });
  await page.getByRole('button', { name: 'Zavrieť' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  return src;
}

/** Sends a photo with a text and waits until the server has it and the device released its blob. */
async function sendPhoto(page: Page, text: string): Promise<Locator> {
  await pick(page, [{ name: 'fotka.jpg', mimeType: 'image/jpeg', buffer: await photo(page) }]);
  await expect(page.getByTestId('attachment-draft').first()).toHaveAttribute('data-ready', 'true');
  await composer(page).fill(text);
  await composer(page).press('Enter');
  const bubble = ownBubble(page, text);
  await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  // R12.8: the server's row replaced the local one, whose addresses now name the stored objects.
  await expect(bubble.locator('img')).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\?token=/, { timeout: 30_000 });
  await expectPainted(bubble.locator('img'));
  return bubble;
}

/** The entries of the signed-in user's attachment cache, as the page sees Cache Storage. */
const cachedAttachments = (page: Page) =>
  page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith('poradna-attachments-')) continue;
      for (const req of await (await caches.open(name)).keys()) out.push(`${name} ${req.url}`);
    }
    return out;
  });

test('a sent photo whose blob was released opens offline after a reload: bubble and lightbox; sign-out drops the cache', async ({ page, context, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'attachcache');
  await signIn(page, user.email);
  await controlled(page);
  await openChat(page, conversationId);

  const bubble = await sendPhoto(page, 'Fotka do archívu');
  await lightbox(page, bubble);
  // Both the thumbnail and the full image are kept, each under its object address (no token), for this user.
  const entries = await cachedAttachments(page);
  expect(entries).toHaveLength(2);
  for (const e of entries) {
    expect(e).toMatch(new RegExp(`^poradna-attachments-${user.id} ${baseURL}/storage/v1/object/sign/attachments/[^?]+$`));
  }

  await context.setOffline(true);
  await page.reload();
  const offlineBubble = ownBubble(page, 'Fotka do archívu');
  await expect(offlineBubble).toBeVisible();
  // Offline nothing can be signed: the page asks for the bare object address, the worker answers it.
  await expect(offlineBubble.locator('img')).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/[^?]+$/);
  await expectPainted(offlineBubble.locator('img'));
  await page.screenshot({ path: `${SHOTS}/attachment-offline-bubble-phone.png`, animations: 'disabled' });
  expect(await lightbox(page, offlineBubble, 'attachment-offline-lightbox-phone.png')).not.toContain('token=');
  await page.setViewportSize(DESKTOP);
  await expectPainted(offlineBubble.locator('img'));
  await page.screenshot({ path: `${SHOTS}/attachment-offline-bubble-desktop.png`, animations: 'disabled' });
  await page.setViewportSize(PHONE);
  await context.setOffline(false);

  // Sign-out: the next person on this device gets none of it.
  await page.goto('/app/settings');
  await page.getByRole('button', { name: 'Odhlásiť sa' }).click();
  await page.waitForURL(/\/auth\/login/);
  await expect.poll(() => cachedAttachments(page)).toEqual([]);
});

async function device(browser: Browser, baseURL: string, viewport: { width: number; height: number }): Promise<Page> {
  const ctx = await browser.newContext({ baseURL, viewport, locale: 'sk-SK', timezoneId: 'Europe/Bratislava' });
  return ctx.newPage();
}

test("a photo sent from the phone shows on the user's other device and opens in its lightbox", async ({ page, browser, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'attachtwo');
  const desktop = await device(browser, baseURL!, DESKTOP);
  try {
    await storeSession(page, user.email);
    await openChat(page, conversationId);
    await storeSession(desktop, user.email);
    await openChat(desktop, conversationId);

    await sendPhoto(page, 'Fotka z mobilu');
    const there = ownBubble(desktop, 'Fotka z mobilu');
    await expect(there).toHaveCount(1);
    await expect(there.locator('img')).toHaveCount(1);
    await expectPainted(there.locator('img'));
    const src = await lightbox(desktop, there, 'attachment-other-device-lightbox-desktop.png');
    expect(src).toMatch(/\/storage\/v1\/object\/sign\/attachments\/.+\/fotka\.jpg\?token=/);
    // The lightbox shows the full image the phone prepared, not the thumbnail.
    const natural = await desktop.evaluate(async (url) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, src);
    expect(natural).toEqual([1200, 800]);
  } finally {
    await desktop.context().close();
  }
});

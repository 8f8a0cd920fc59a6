// Issue 38, the composer's half of attachments, in Debian Chromium through the real stack: a photo
// picked with the attach button (a JPEG built here with an EXIF Orientation 6 and a GPS position) is
// ready at once and its own bubble shows at once; it is prepared on the device before upload (R12.13)
// — downscaled to 2,048 px on its long edge, turned upright, and the bytes the server stored carry no
// APP1 Exif segment (read back through the bubble's signed URLs once sent); a PDF gets a
// file card; a file over 25 MB is refused in Slovak with everything else kept; a pasted image joins
// the tray; axe at rest is clean on the composer with previews, on a phone and a desktop.
// The send itself needs the engine's attachment outbox (branch h-attach-sync): without it in this
// build the journey checks that a send keeps text and files and says so; with it, that the own bubble
// shows at once, offline too, from the local blob.
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { hasExif, hasGpsPointer, withGpsExif } from '../tests/helpers/jpeg-exif.ts';
import { toast } from './admin-helpers.ts';
import { axeViolations } from './axe-helpers.ts';
import { freshChat, PHONE } from './defects-helpers.ts';
import { blobFacts, composer, drafts, openChat, pick, twoColourJpeg } from './attachment-helpers.ts';
import { storeSession } from './stored-session.ts';

// axe is injected as an inline script, which the app's CSP refuses: bypass it for the probe only.
test.use({ viewport: PHONE, hasTouch: true, bypassCSP: true });

const SHOTS = 'e2e/artifacts/screenshots';
const DESKTOP = { width: 1440, height: 900 };

/** A landscape JPEG, 3000 × 2000, left half red and right half blue: with EXIF Orientation 6 it must show portrait, red on top. */
const landscapeJpeg = (page: Page) => twoColourJpeg(page, { width: 3000, height: 2000 }, { left: '#e00000', right: '#0000e0' });

const reddish = ([r, g, b]: number[]) => r! > 180 && g! < 80 && b! < 80;
const bluish = ([r, g, b]: number[]) => b! > 180 && r! < 80 && g! < 80;

test('a photo is downscaled, turned upright and stripped of EXIF/GPS on the device', async ({ page, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'attach');
  await storeSession(page, user.email);
  await openChat(page, conversationId);

  const photo = withGpsExif(await landscapeJpeg(page), { orientation: 6, latitude: [48, 8, 54.96], longitude: [17, 6, 27.72] });
  expect(hasExif(photo) && hasGpsPointer(photo), 'the fixture carries EXIF with a GPS position').toBe(true);
  await pick(page, [{ name: 'dovolenka.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) }]);
  await expect(drafts(page)).toHaveCount(1);
  // R12.13: ready the moment it is picked (the engine prepares it after the bubble is shown).
  await expect(drafts(page).first()).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('attachment-thumb')).toBeVisible();
  await composer(page).fill('Z dovolenky');
  await composer(page).press('Enter');
  const bubble = page.locator('[data-testid="message"][data-own="true"]', { hasText: 'Z dovolenky' });
  await expect(bubble.locator('img')).toHaveAttribute('src', /^blob:/);

  // What the server stored (the bubble's addresses name the stored objects once sent, R12.8).
  await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  await expect(bubble.locator('img')).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\?token=/, { timeout: 30_000 });
  // The thumbnail: 320 px long edge, upright, no EXIF. The first stored object the bubble names is
  // its thumbnail, never the full image in its place (R12.15: tests/unit/ui/bubble-stored-thumb.test.tsx).
  const thumb = await blobFacts(page, (await bubble.locator('img').getAttribute('src'))!);
  expect([thumb.width, thumb.height]).toEqual([213, 320]);
  expect(hasExif(thumb.bytes)).toBe(false);

  // The stored image, as the lightbox opens it: 2,048 px, portrait, red on top, no EXIF.
  await bubble.getByRole('button', { name: 'dovolenka.jpg' }).click();
  const img = page.getByRole('dialog').locator('img');
  // Until the full image's address is signed the lightbox shows the thumbnail (ImageGallery's slides):
  // the two are signed side by side, and under load the thumbnail's may be the only one yet.
  await expect(img).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\/dovolenka\.jpg\?token=/);
  const full = await blobFacts(page, (await img.getAttribute('src'))!);
  await page.getByRole('button', { name: 'Zavrieť' }).click();
  expect(hasExif(full.bytes), 'no APP1 Exif segment (GPS) in what is stored').toBe(false);
  expect(Buffer.from(full.bytes).includes(Buffer.from('Exif\0\0')), 'no Exif header anywhere in the bytes').toBe(false);
  expect(full.type).toBe('image/jpeg');
  expect([full.width, full.height]).toEqual([1365, 2048]);
  expect(reddish(full.top) && bluish(full.bottom), `upright: top ${JSON.stringify(full.top)}, bottom ${JSON.stringify(full.bottom)}`).toBe(true);
});

test('a PDF gets a file card, over 25 MB is refused in Slovak, a pasted image joins; axe clean with previews', async ({ page, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'attachpdf');
  await storeSession(page, user.email);
  await openChat(page, conversationId);

  // A PDF: a file card with its type; a file over 25 MB: refused in Slovak, the rest kept.
  await pick(page, [{ name: 'brief.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') }]);
  await expect(drafts(page)).toHaveCount(1);
  await expect(drafts(page).first()).toContainText('brief.pdf');
  await expect(drafts(page).first()).toContainText('PDF');
  // A sparse file on disk: the picker is handed its path, not 25 MB through the protocol.
  const big = join(mkdtempSync(join(tmpdir(), 'attach-')), 'video.zip');
  writeFileSync(big, '');
  truncateSync(big, 25 * 1024 * 1024 + 1);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Priložiť súbor', exact: true }).click();
  await (await chooser).setFiles(big);
  await expect(toast(page, 'Súbor video.zip má viac ako 25 MB, nepriložil sa.')).toBeVisible();
  await expect(drafts(page)).toHaveCount(1);
  await expect(page.getByTestId('attachment-tray')).toContainText('Najviac 25 MB na súbor');

  // A pasted image joins the tray, ready at once (the engine makes it WebP, which keeps transparency, R12.13).
  await composer(page).focus();
  await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(40, 30);
    canvas.getContext('2d')!.fillRect(0, 0, 20, 30);
    const file = new File([await canvas.convertToBlob({ type: 'image/png' })], 'snimka.png', { type: 'image/png' });
    const data = new DataTransfer();
    data.items.add(file);
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(drafts(page)).toHaveCount(2);
  await expect(drafts(page).nth(1)).toContainText('snimka.png');
  await expect(drafts(page).nth(1)).toHaveAttribute('data-ready', 'true');
  await pick(page, [{ name: 'poznamky.txt', mimeType: 'text/plain', buffer: Buffer.from('Termín: piatok\n') }]);
  await expect(drafts(page)).toHaveCount(3);
  await page.getByRole('button', { name: 'Odstrániť prílohu poznamky.txt' }).click();
  await expect(drafts(page)).toHaveCount(2);
  await page.getByRole('textbox', { name: 'Popis k brief.pdf (nepovinný)' }).fill('Zadanie kampane');

  // At rest with previews: axe clean on a phone and a desktop; screenshots of both. The 25 MB toast
  // may still be up: axe holds it still and judges it with the rest (e2e/axe-helpers.ts).
  await page.screenshot({ path: `${SHOTS}/composer-previews-phone.png`, animations: 'disabled' });
  expect(await axeViolations(page), 'axe on a phone').toEqual([]);
  await page.setViewportSize(DESKTOP);
  // The same chat in two panes, not a new page: the tray keeps its files and the caption typed.
  await expect(page.getByTestId('two-pane')).toBeVisible();
  await expect(drafts(page), 'the tray after the switch to two panes').toHaveCount(2);
  await expect(page.getByRole('textbox', { name: 'Popis k brief.pdf (nepovinný)' })).toHaveValue('Zadanie kampane');
  await page.screenshot({ path: `${SHOTS}/composer-previews-desktop.png`, animations: 'disabled' });
  expect(await axeViolations(page), 'axe on a desktop').toEqual([]);
  await page.setViewportSize(PHONE);

  // R16.5: the tray's files are kept on the device with the draft. Back to the list and a reload: no
  // 'Leave site?' prompt (nothing would be lost), and the chat opened again shows both files, the
  // caption and the pasted image's preview (its bytes came back from IndexedDB).
  const prompts: string[] = [];
  page.on('dialog', (d) => {
    prompts.push(d.type());
    void d.accept();
  });
  await page.getByRole('link', { name: 'Späť' }).click();
  await expect(page).toHaveURL(/\/app\/chats$/);
  await page.reload();
  // The list names the waiting files after 'Koncept:' (R16.5; no text was typed: a PDF and an image).
  await expect(page.getByTestId('row-snippet').first()).toHaveText('Koncept: 2 prílohy');
  await page.screenshot({ path: `${SHOTS}/list-draft-files-phone.png`, animations: 'disabled' });
  await page.getByTestId('conversation-row').first().click();
  await expect(drafts(page), 'the tray after a reload').toHaveCount(2);
  await expect(drafts(page).nth(0)).toContainText('brief.pdf');
  await expect(drafts(page).nth(1)).toContainText('snimka.png');
  await expect(page.getByRole('textbox', { name: 'Popis k brief.pdf (nepovinný)' })).toHaveValue('Zadanie kampane');
  await expect
    .poll(() => drafts(page).nth(1).locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { message: 'the pasted image (40 × 30) after the reload' })
    .toBe(40);
  await page.screenshot({ path: `${SHOTS}/composer-tray-after-reload-phone.png`, animations: 'disabled' });
  // Removed, they are gone for good: a reload brings nothing back.
  await page.getByRole('button', { name: 'Odstrániť prílohu brief.pdf' }).click();
  await page.getByRole('button', { name: 'Odstrániť prílohu snimka.png' }).click();
  await expect(drafts(page)).toHaveCount(0);
  await page.reload();
  await expect(composer(page)).toBeEnabled();
  await expect(drafts(page)).toHaveCount(0);
  expect(prompts, 'no prompt: the tray is kept, the text is a stored draft').toEqual([]);
});

test('the camera button opens the camera on a touch device', async ({ page, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'attachcam');
  await storeSession(page, user.email);
  await openChat(page, conversationId);
  await expect(page.getByTestId('camera-input')).toHaveAttribute('capture', 'environment');
  await expect(page.getByTestId('camera-input')).toHaveAttribute('accept', 'image/*');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Odfotiť' }).click();
  expect((await chooser).isMultiple()).toBe(false);
});

test('a photo sent offline shows as an own bubble at once from the local blob', async ({ page, context, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'attachoff');
  await storeSession(page, user.email);
  await openChat(page, conversationId);
  await context.setOffline(true);
  const photo = await landscapeJpeg(page);
  await pick(page, [{ name: 'offline.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) }]);
  await expect(drafts(page).first()).toHaveAttribute('data-ready', 'true');
  await composer(page).fill('Fotka offline');
  await composer(page).press('Enter');
  const bubble = page.locator('[data-testid="message"][data-own="true"]', { hasText: 'Fotka offline' });
  await expect(bubble).toBeVisible();
  await expect(drafts(page)).toHaveCount(0);
  await expect(bubble.locator('img')).toHaveJSProperty('complete', true);
  await expect.poll(() => bubble.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(bubble.locator('img')).toHaveAttribute('src', /^blob:/);
  await page.screenshot({ path: `${SHOTS}/bubble-offline-phone.png`, animations: 'disabled' });
  await context.setOffline(false);
});

// R12.14 (issue 38, bench row 14a) in Debian Chromium through the real stack: a phone photo's own
// bubble paints its EXIF thumbnail while the photo is still being prepared — and again at once after
// a reload mid-preparation (the preview is stored with the message) — then the prepared image; and
// what reaches the server carries neither the EXIF (GPS) nor the thumbnail.
//
// The photo is a camera JPEG built here: 3000 × 2000 pixels, left half red and right half blue,
// Orientation 6, a GPS position, and a 160 × 120 IFD1 thumbnail whose halves are green and yellow —
// so which image a pixel comes from, and whether it was turned upright, shows in its colour.
// A phone decodes a 12 MP photo slowly; here it would be done in a blink, so the page's decoding of
// big images (createImageBitmap for the preparation, HTMLImageElement.decode for the bubble's swap)
// waits for the test's go (an init script, armed again on reload). Nothing is timed: each step waits
// for what the page shows.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { twoColourJpegBytes } from '../tests/helpers/camera-photo.ts';
import { hasExif, withCameraExif } from '../tests/helpers/jpeg-exif.ts';
import { blobFacts, composer, drafts, openChat, ownBubble, pick, twoColourJpeg } from './attachment-helpers.ts';
import { freshChat, PHONE, SHOTS, signIn } from './defects-helpers.ts';

test.use({ viewport: PHONE, hasTouch: true });
const DESKTOP = { width: 1440, height: 900 };

/**
 * Holds the page's image decoding until `window.__decodeGo()`; every page load holds it again. Each
 * decode() asked is recorded in `window.__decoded` (its image's address), R12.15's evidence.
 */
async function holdDecoding(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let go!: () => void;
    const gate = new Promise<void>((r) => (go = r));
    const w = window as unknown as { __decodeGo: () => void; __decoded: string[] };
    w.__decodeGo = go;
    w.__decoded = [];
    const bitmap = window.createImageBitmap.bind(window) as (...a: unknown[]) => Promise<ImageBitmap>;
    window.createImageBitmap = (...a: unknown[]) => gate.then(() => bitmap(...a));
    const proto = HTMLImageElement.prototype;
    const decode = Object.getOwnPropertyDescriptor(proto, 'decode')!.value as (this: HTMLImageElement) => Promise<void>;
    proto.decode = function (this: HTMLImageElement) {
      w.__decoded.push(this.src);
      return gate.then(() => decode.call(this));
    };
  });
}

/** The image's decoded size as shown (EXIF orientation applied) and the colour at its top and bottom. */
function shownFacts(img: Locator) {
  return img.evaluate(async (el: HTMLImageElement) => {
    if (!el.complete || el.naturalWidth === 0) await new Promise((r) => el.addEventListener('load', r, { once: true }));
    const canvas = document.createElement('canvas');
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(el, 0, 0);
    const at = (y: number) => Array.from(ctx.getImageData(el.naturalWidth / 2, y, 1, 1).data.slice(0, 3));
    return { size: `${el.naturalWidth}×${el.naturalHeight}`, top: at(3), bottom: at(el.naturalHeight - 3), preview: el.dataset['preview'] ?? null };
  });
}
const greenish = ([r, g, b]: number[]) => g! > 150 && r! < 100 && b! < 100;
const yellowish = ([r, g, b]: number[]) => r! > 150 && g! > 150 && b! < 100;
const reddish = ([r, g, b]: number[]) => r! > 180 && g! < 80 && b! < 80;

test('R12.14 a phone photo’s bubble shows its EXIF thumbnail while it is prepared, after a reload too; the server gets neither the thumbnail nor the EXIF', async ({ page, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'exifprev');
  await holdDecoding(page);
  await signIn(page, user.email);
  await openChat(page, conversationId);

  const thumbnail = twoColourJpegBytes(160, 120, [0, 200, 0], [230, 230, 0]);
  const pixels = await twoColourJpeg(page, { width: 3000, height: 2000 }, { left: '#e00000', right: '#0000e0' });
  const photo = withCameraExif(pixels, { orientation: 6, width: 3000, height: 2000, latitude: [48, 8, 54.96], longitude: [17, 6, 27.72], thumbnail });
  await pick(page, [{ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) }]);
  await expect(drafts(page).first()).toHaveAttribute('data-ready', 'true');
  // R12.15: the item was ready at once; its EXIF look-up fills in the preview aside. The tray shows
  // the thumbnail, upright (Orientation 6: 120 × 160, green on top).
  await expect(page.getByTestId('attachment-thumb')).toHaveAttribute('data-preview', 'exif');
  const tray = await shownFacts(page.getByTestId('attachment-thumb'));
  expect(tray.size).toBe('120×160');
  expect(greenish(tray.top) && yellowish(tray.bottom), `tray upright: ${JSON.stringify(tray)}`).toBe(true);

  await composer(page).fill('Z výletu');
  await composer(page).press('Enter');
  const bubble = ownBubble(page, 'Z výletu');
  const img = bubble.locator('img');
  // The upload row is 'preparing' (its line says so) and the bubble's picture is the EXIF thumbnail.
  await expect(bubble.getByText('Fotka sa pripravuje na odoslanie…')).toBeVisible();
  await expect(img).toHaveAttribute('data-preview', 'exif');
  const first = await shownFacts(img);
  expect(first.size).toBe('120×160');
  expect(greenish(first.top) && yellowish(first.bottom), `bubble upright: ${JSON.stringify(first)}`).toBe(true);
  await expect(img).toHaveAttribute('width', '2000');
  await expect(img).toHaveAttribute('height', '3000');
  // The picture already has the width the prepared thumbnail will have (portrait: 213 px), not the preview's 120.
  expect(await img.evaluate((el) => el.getBoundingClientRect().width)).toBeCloseTo(213, 0);
  // R12.15: nothing asked the browser to decode the picked photo for the bubble (before, its swap
  // decoded the original beside the preview; the image decoder then did the 12 MP first).
  const previewSrc = await img.getAttribute('src');
  expect(await page.evaluate(() => (window as unknown as { __decoded: string[] }).__decoded.filter((src) => src.startsWith('blob:')))).toEqual([]);
  expect(previewSrc).toMatch(/^blob:/);
  await page.screenshot({ path: `${SHOTS}/exif-preview-bubble-phone.png`, animations: 'disabled' });
  await page.setViewportSize(DESKTOP);
  await expect(img).toHaveAttribute('data-preview', 'exif');
  expect((await shownFacts(img)).size).toBe('120×160');
  await page.screenshot({ path: `${SHOTS}/exif-preview-bubble-desktop.png`, animations: 'disabled' });
  await page.setViewportSize(PHONE);

  // Reopened mid-preparation: the preview is in the device's database, so it shows at once again.
  await page.reload();
  await expect(bubble.getByText('Fotka sa pripravuje na odoslanie…')).toBeVisible();
  await expect(img).toHaveAttribute('data-preview', 'exif');
  expect((await shownFacts(img)).size).toBe('120×160');

  // Decoding goes on: the photo is prepared, the bubble moves to the sharper image and it is sent.
  await page.evaluate(() => (window as unknown as { __decodeGo: () => void }).__decodeGo());
  await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  await expect(img).not.toHaveAttribute('data-preview', 'exif');
  await expect(img).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\?token=/, { timeout: 30_000 });
  // What the server stored as the thumbnail is the prepared one (320 px, red on top), not the camera's, and has no EXIF.
  const thumb = await blobFacts(page, (await img.getAttribute('src'))!);
  expect([thumb.width, thumb.height]).toEqual([213, 320]);
  expect(reddish(thumb.top), `the prepared thumbnail: ${JSON.stringify(thumb.top)}`).toBe(true);
  expect(hasExif(thumb.bytes)).toBe(false);
  // The stored photo: no Exif segment, no trace of the camera's thumbnail.
  await bubble.getByRole('button', { name: 'IMG_0001.jpg' }).click();
  // The lightbox shows the thumbnail until the full image's address is signed (ImageGallery's slides).
  const shown = page.getByRole('dialog').locator('img');
  await expect(shown).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\/IMG_0001\.jpg\?token=/);
  const full = await blobFacts(page, (await shown.getAttribute('src'))!);
  await page.getByRole('button', { name: 'Zavrieť' }).click();
  expect(hasExif(full.bytes)).toBe(false);
  expect(Buffer.from(full.bytes).includes(Buffer.from(thumbnail.subarray(2, 200))), 'the camera thumbnail is not in the stored photo').toBe(false);
  expect([full.width, full.height]).toEqual([1365, 2048]);
});

test('R12.14 a JPEG without an EXIF thumbnail is shown as before: the picked photo itself', async ({ page, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'exifbare');
  await signIn(page, user.email);
  await openChat(page, conversationId);
  const pixels = await twoColourJpeg(page, { width: 1200, height: 800 }, { left: '#e00000', right: '#0000e0' });
  await pick(page, [{ name: 'bez-exif.jpg', mimeType: 'image/jpeg', buffer: pixels }]);
  await expect(drafts(page).first()).toHaveAttribute('data-ready', 'true');
  await composer(page).fill('Bez náhľadu');
  await composer(page).press('Enter');
  const img = ownBubble(page, 'Bez náhľadu').locator('img');
  await expect(img).toHaveAttribute('src', /^blob:/);
  await expect(img).not.toHaveAttribute('data-preview', 'exif');
  expect((await shownFacts(img)).size).toMatch(/^(1200×800|320×213)$/);
});

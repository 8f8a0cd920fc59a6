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
import { freshChat, PHONE, rest, SHOTS } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

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
  await storeSession(page, user.email);
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
  await storeSession(page, user.email);
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

/**
 * Holds the page's EXIF look-up (R12.14: the read of the picked photo's first 128 kB, which every
 * look-up starts with) until `window.__lookUpGo()`, and R12.2's storage estimate — the first step of
 * storing a send — while `window.__storeHeld` is set, until `window.__storeGo()`. Only the file named
 * `name` is held; `window.__lookUps` counts the look-ups asked of it and `__lookUpsRead` those answered.
 */
async function holdLookUpAndStore(page: Page, name: string): Promise<void> {
  await page.addInitScript((name) => {
    const w = window as unknown as { __lookUpGo: () => void; __lookUps: number; __lookUpsRead: number; __storeHeld: boolean; __storeGo: () => void };
    let lookUpGo!: () => void;
    const lookUpGate = new Promise<void>((r) => (lookUpGo = r));
    let storeGo!: () => void;
    const storeGate = new Promise<void>((r) => (storeGo = r));
    Object.assign(w, { __lookUpGo: lookUpGo, __storeGo: storeGo, __lookUps: 0, __lookUpsRead: 0, __storeHeld: false });
    const slice = Object.getOwnPropertyDescriptor(Blob.prototype, 'slice')!.value as (this: Blob, ...a: Parameters<Blob['slice']>) => Blob;
    Blob.prototype.slice = function (this: Blob, ...a: Parameters<Blob['slice']>) {
      const part = slice.apply(this, a);
      if (this instanceof File && this.name === name) {
        w.__lookUps++;
        const read = part.arrayBuffer.bind(part);
        part.arrayBuffer = () => lookUpGate.then(read).finally(() => w.__lookUpsRead++);
      }
      return part;
    };
    const estimate = Object.getOwnPropertyDescriptor(StorageManager.prototype, 'estimate')!.value as (this: StorageManager) => Promise<StorageEstimate>;
    StorageManager.prototype.estimate = function (this: StorageManager) {
      return w.__storeHeld ? storeGate.then(() => estimate.call(this)) : estimate.call(this);
    };
  }, name);
}

/** The ids of the attachment blobs the device's database holds (R12.3's `attachmentBlobs`). */
function storedBlobIds(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('poradna-sync-'));
    const open = indexedDB.open(name!);
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(new Error(String(open.error)));
    });
    const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
      const req = db.transaction('attachmentBlobs').objectStore('attachmentBlobs').getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error(String(req.error)));
    });
    db.close();
    return keys.map(String);
  });
}

test('R12.15 send pressed before the EXIF look-up answered: one message, upright and stripped, the late answer dropped, the UI truthful throughout', async ({ page, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'exifearly');
  await holdDecoding(page);
  await holdLookUpAndStore(page, 'IMG_0002.jpg');
  await storeSession(page, user.email);
  await openChat(page, conversationId);

  const thumbnail = twoColourJpegBytes(160, 120, [0, 200, 0], [230, 230, 0]);
  const pixels = await twoColourJpeg(page, { width: 3000, height: 2000 }, { left: '#e00000', right: '#0000e0' });
  const photo = withCameraExif(pixels, { orientation: 6, width: 3000, height: 2000, latitude: [48, 8, 54.96], longitude: [17, 6, 27.72], thumbnail });
  await pick(page, [{ name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) }]);

  // The look-up was asked and has not answered: the item is ready to send with a placeholder, and the
  // send button is open (R12.15: nothing waits for it).
  const counts = () =>
    page.evaluate(() => {
      const w = window as unknown as { __lookUps: number; __lookUpsRead: number };
      return { asked: w.__lookUps, read: w.__lookUpsRead };
    });
  await expect.poll(async () => (await counts()).asked).toBe(1);
  await expect(drafts(page)).toHaveCount(1);
  await expect(drafts(page).first()).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('attachment-thumb-pending')).toBeVisible();
  await expect(page.getByTestId('attachment-thumb')).toHaveCount(0);
  await composer(page).fill('Skoro odoslaná');
  await expect(page.getByRole('button', { name: 'Odoslať' })).toBeEnabled();

  // Send at once, its store held at R12.2's estimate. R12.17: the bubble shows at once, saying it is
  // being sent; the tray and the text stay until the message is stored (invariant 1).
  await page.evaluate(() => ((window as unknown as { __storeHeld: boolean }).__storeHeld = true));
  await composer(page).press('Enter');
  const bubble = ownBubble(page, 'Skoro odoslaná');
  await expect(bubble).toHaveCount(1);
  await expect(bubble).toHaveAttribute('data-state', 'sending');
  await expect(bubble.getByTestId('pending-label')).toHaveText('Odosiela sa…');
  await expect(bubble.getByRole('button', { name: 'IMG_0002.jpg' })).toBeVisible();
  expect((await counts()).read, 'the send went before the look-up answered').toBe(0);
  // The look-up answers meanwhile: the item, still in the tray while its message is stored, shows its
  // preview then — the send took it as it was, without one.
  await page.evaluate(() => (window as unknown as { __lookUpGo: () => void }).__lookUpGo());
  await expect(page.getByTestId('attachment-thumb')).toHaveAttribute('data-preview', 'exif');
  await expect(composer(page)).toHaveValue('Skoro odoslaná');
  await expect(bubble.locator('img')).not.toHaveAttribute('data-preview', 'exif');
  await page.evaluate(() => (window as unknown as { __storeGo: () => void }).__storeGo());

  // Stored: still one bubble, the tray and the composer empty; the late preview did not bring the item back.
  await expect(bubble).toHaveCount(1);
  await expect(drafts(page)).toHaveCount(0);
  await expect(composer(page)).toHaveValue('');
  await expect(bubble).toHaveAttribute('data-state', 'sending');
  await expect(bubble.getByText('Fotka sa pripravuje na odoslanie…')).toBeVisible();
  // The bubble shows the picked photo (no preview went with it), turned upright by its EXIF: portrait, red on top.
  const img = bubble.locator('img');
  await expect(img).toHaveAttribute('src', /^blob:/);
  await expect(img).not.toHaveAttribute('data-preview', 'exif');
  const shown = await shownFacts(img);
  expect(shown.size).toBe('2000×3000');
  expect(reddish(shown.top), `bubble upright: ${JSON.stringify(shown)}`).toBe(true);
  // The device holds the picked photo only: no preview was stored for it afterwards (R12.15).
  expect(await storedBlobIds(page)).toHaveLength(1);

  // Preparation goes on: prepared, uploaded, sent once.
  await page.evaluate(() => (window as unknown as { __decodeGo: () => void }).__decodeGo());
  await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
  await expect(img).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\?token=/, { timeout: 30_000 });
  const thumb = await blobFacts(page, (await img.getAttribute('src'))!);
  expect([thumb.width, thumb.height]).toEqual([213, 320]);
  expect(reddish(thumb.top), `the prepared thumbnail: ${JSON.stringify(thumb.top)}`).toBe(true);
  expect(hasExif(thumb.bytes)).toBe(false);
  await bubble.getByRole('button', { name: 'IMG_0002.jpg' }).click();
  const lightbox = page.getByRole('dialog').locator('img');
  await expect(lightbox).toHaveAttribute('src', /\/storage\/v1\/object\/sign\/attachments\/.+\/IMG_0002\.jpg\?token=/);
  const full = await blobFacts(page, (await lightbox.getAttribute('src'))!);
  await page.getByRole('button', { name: 'Zavrieť' }).click();
  expect(hasExif(full.bytes), 'no APP1 Exif segment (GPS) in what is stored').toBe(false);
  expect(Buffer.from(full.bytes).includes(Buffer.from(thumbnail.subarray(2, 200))), 'the camera thumbnail is not in the stored photo').toBe(false);
  expect([full.width, full.height]).toEqual([1365, 2048]);
  expect(reddish(full.top), `stored upright: ${JSON.stringify(full.top)}`).toBe(true);

  // Exactly one message on the server, with its one photo and the caption; one bubble after a reload.
  const rows = (await rest(baseURL!, `messages?select=text,payload&conversation_id=eq.${conversationId}&direction=eq.user`)) as { text: string; payload: { attachments?: unknown[] } }[];
  expect(rows.map((r) => [r.text, r.payload.attachments?.length])).toEqual([['Skoro odoslaná', 1]]);
  await page.reload();
  await expect(ownBubble(page, 'Skoro odoslaná')).toHaveAttribute('data-state', 'sent');
  await expect(page.locator('[data-testid="message"][data-own="true"]')).toHaveCount(1);
});

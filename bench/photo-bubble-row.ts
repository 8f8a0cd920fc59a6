// Row 14a (issue 38): a 12 MP photo picked → the member's own bubble with its thumbnail painted, in
// Debian Chromium on the mobile profile (browser.ts: 4× CPU, 150 ms, 750 kbps up), the Poradňa build
// on a stack of its own. Per sample, all clocks the page's:
//   pick      the attach input's `change` (the picker handed the file over; Playwright's transfer
//             of the bytes is before it and not counted);
//   ready     the tray's item ready to send (since R12.13 at once: the engine prepares the photo
//             after the bubble; before, here, after downscale, re-encode and thumbnail): send is
//             pressed in that same task (Enter on the composer), as if the member tapped it at once.
//             R12.15: the item is ready at once and its EXIF look-up fills in its preview aside, so
//             for the camera photo 'ready' is the tray showing that preview (its <img>, not the placeholder):
//             a send pressed before the look-up answered goes without a preview, as 14a-bare does,
//             and no member taps within the look-up's ~100 ms; the wait counts in pick → painted;
//   stored    'poradna:attachment-stored' (send-attachments.ts): the message and file committed;
//   painted   the animation frame, then the macrotask, after the bubble's first <img> decoded (the
//             local blob: since R12.14 the photo's EXIF thumbnail when it carries one, else, R12.13,
//             the picked original until prepared) — as `markAfterPaint` does for the text bubble.
// The photo is what a phone's camera writes (R12.14): an APP1 Exif segment with Orientation 6, the
// pixel size, a GPS position and a 160 × 120 IFD1 thumbnail of the same picture; sub-row 14a-bare
// sends the same pixels without any metadata (a stripped JPEG: the path without a preview).
// Baseline: in the same page, interleaved, a text send's Enter → own bubble painted (row 3's figure,
// its 'poradna:bubble-painted' mark): what a photo costs over a text. The online-only comparison
// build cannot send attachments (send-attachments.ts says so in Slovak), so it has no figure here.
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { createAccount, createConversation, pool } from '../tests/sync/helpers/server-db.ts';
import { startTestStack } from '../tests/helpers/stack.ts';
import { withCameraExif } from '../tests/helpers/jpeg-exif.ts';
import { openClient, setProfile, signIn } from './browser.ts';
import { BENCH_PASSWORD } from './generate.ts';
import { typeAndSend } from './rows-send.ts';
import { p50p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

/** 12 MP as a phone takes it: 4,000 × 3,000, and the 160 × 120 thumbnail its camera writes into EXIF. */
const PHOTO = { width: 4000, height: 3000 };
const EXIF_THUMB = { width: 160, height: 120 };
/** Held upright: the sensor's landscape pixels with Orientation 6 (turn 90° clockwise), as phones store portraits. */
const ORIENTATION = 6;

interface PhotoSample {
  /** pick → tray item prepared, send pressed → bubble painted, and pick → bubble painted (ms). */
  prepareMs: number;
  sendMs: number;
  paintMs: number;
  /** send pressed → the message and its file stored ('poradna:attachment-stored'; NaN in a build without the mark). */
  storeMs: number;
  /** The painted image's decoded size: the EXIF preview (120 × 160) or the original (3000 × 4000). */
  painted: string;
}

/**
 * A 12 MP JPEG drawn by the page (gradients and noise, so it compresses like a photo, ~2–4 MB), and the
 * same picture drawn at 160 × 120 — the thumbnail a camera writes into the photo's EXIF.
 */
async function twelveMegapixelJpeg(page: Page): Promise<{ photo: Buffer; thumb: Buffer }> {
  const { photo, thumb } = await page.evaluate(async ({ width, height, thumbSize }) => {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d')!;
    const g = ctx.createLinearGradient(0, 0, width, height);
    g.addColorStop(0, '#2a6f97');
    g.addColorStop(0.5, '#f4a259');
    g.addColorStop(1, '#5b8e7d');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, width, height);
    let seed = 7;
    for (let i = 0; i < 4000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      ctx.fillStyle = `hsla(${seed % 360}, 60%, 50%, 0.35)`;
      ctx.fillRect(seed % width, (seed >> 8) % height, 20 + (seed % 180), 20 + ((seed >> 4) % 180));
    }
    const small = new OffscreenCanvas(thumbSize.width, thumbSize.height);
    small.getContext('2d')!.drawImage(canvas, 0, 0, thumbSize.width, thumbSize.height);
    const base64 = async (c: OffscreenCanvas, quality: number) => {
      const bytes = new Uint8Array(await (await c.convertToBlob({ type: 'image/jpeg', quality })).arrayBuffer());
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    return { photo: await base64(canvas, 0.92), thumb: await base64(small, 0.8) };
  }, { ...PHOTO, thumbSize: EXIF_THUMB });
  return { photo: Buffer.from(photo, 'base64'), thumb: Buffer.from(thumb, 'base64') };
}

/**
 * The photo as a phone camera writes it: an APP1 Exif segment (make, model, Orientation, pixel size,
 * a GPS position, IFD1 with the JPEG thumbnail) before the canvas JPEG's own segments.
 */
function cameraJpeg(photo: Buffer, thumb: Buffer): Buffer {
  return Buffer.from(
    withCameraExif(photo, { orientation: ORIENTATION, ...PHOTO, latitude: [48, 8, 54.96], longitude: [17, 6, 27.72], thumbnail: thumb }),
  );
}

/**
 * Arms the page for one photo: times the pick, presses send once `readySelector` is in the tray (the
 * item ready, or its EXIF preview shown), times the bubble's paint.
 */
async function armPhoto(page: Page, label: string, readySelector: string): Promise<void> {
  await page.evaluate(({ label, readySelector }) => {
    const ta = document.querySelector<HTMLTextAreaElement>('form textarea');
    if (!ta) throw new Error('no composer');
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(ta, label);
    ta.dispatchEvent(new Event('input', { bubbles: true }));
    const w = window as unknown as { __photo?: Promise<{ pick: number; ready: number; painted: number; size: string }> };
    w.__photo = new Promise((resolve, reject) => {
      let pick = NaN;
      let ready = NaN;
      document.addEventListener('change', () => (pick = performance.now()), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (Number.isNaN(ready) && document.querySelector(readySelector)) {
          ready = performance.now();
          ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        }
        const bubble = [...document.querySelectorAll<HTMLElement>('[data-testid="message"][data-own="true"]')].find((b) => b.textContent?.includes(label));
        const img = bubble?.querySelector('img');
        if (!img?.getAttribute('src')) return;
        observer.disconnect();
        // The first picture that really paints: a decode() whose image was replaced meanwhile (R12.14's
        // swap from the preview to a sharper one) rejects, and then the image now shown is awaited.
        const painted = (tries: number): void => {
          const src = img.src;
          img
            .decode()
            .then(() => requestAnimationFrame(() => setTimeout(() => resolve({ pick, ready, painted: performance.now(), size: `${img.naturalWidth}×${img.naturalHeight}` }), 0)))
            .catch((err: unknown) => (img.src !== src && tries < 3 ? painted(tries + 1) : reject(err instanceof Error ? err : new Error(String(err)))));
        };
        painted(0);
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready', 'data-preview', 'src'] });
    });
  }, { label, readySelector });
}

/**
 * The floor of 'stored → painted' for an image shown from the picked bytes: in the same page and
 * profile, an <img> of an object URL of the same 12 MP JPEG, decoded, then the frame — no app code.
 */
async function decodeFloor(page: Page, photo: Buffer, runs: number): Promise<number[]> {
  const base64 = photo.toString('base64');
  return page.evaluate(
    async ({ base64, runs }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const out: number[] = [];
      for (let i = 0; i < runs; i++) {
        const file = new File([bytes], `floor-${i}.jpg`, { type: 'image/jpeg' });
        const t0 = performance.now();
        const img = document.createElement('img');
        img.style.cssText = 'position:fixed;left:0;top:0;width:224px;height:168px;object-fit:cover';
        img.src = URL.createObjectURL(file);
        document.body.append(img);
        await img.decode();
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        out.push(performance.now() - t0);
        URL.revokeObjectURL(img.src);
        img.remove();
      }
      return out;
    },
    { base64, runs },
  );
}

/** When send is pressed: the item ready (a photo without an EXIF thumbnail) or its preview shown (R12.15). */
const READY = {
  item: '[data-testid="attachment-draft"][data-ready="true"]',
  // The tray shows the item's picture: since R12.15 a JPEG's placeholder until its look-up answered,
  // then its EXIF preview; before R12.15 the item joined the tray with it (the same selector times both).
  preview: '[data-testid="attachment-draft"][data-ready="true"] img[data-testid="attachment-thumb"]',
};

async function sendPhoto(page: Page, photo: Buffer, label: string, readySelector = READY.item): Promise<PhotoSample> {
  await armPhoto(page, label, readySelector);
  await page.setInputFiles('[data-testid="attach-input"]', { name: 'fotka.jpg', mimeType: 'image/jpeg', buffer: photo });
  const t = await page.evaluate(() => (window as unknown as { __photo: Promise<{ pick: number; ready: number; painted: number; size: string }> }).__photo);
  // The tray empties and the composer clears once the message is stored: then the next.
  await page.waitForFunction(() => !document.querySelector('[data-testid="attachment-draft"]') && document.querySelector<HTMLTextAreaElement>('form textarea')?.value === '', null, {
    timeout: 30_000,
    polling: 20,
  });
  const stored = await page.evaluate(() => {
    const m = performance.getEntriesByName('poradna:attachment-stored').at(-1)?.startTime ?? NaN;
    performance.clearMarks('poradna:attachment-stored');
    return m;
  });
  return { prepareMs: t.ready - t.pick, sendMs: t.painted - t.ready, paintMs: t.painted - t.pick, storeMs: stored - t.ready, painted: t.size };
}

/** The figures of one kind of photo's samples. */
function figures(photos: PhotoSample[]) {
  return {
    paint: p50p95(photos.map((p) => p.paintMs)),
    prepare: p50p95(photos.map((p) => p.prepareMs)),
    send: p50p95(photos.map((p) => p.sendMs)),
    store: p50p95(photos.map((p) => p.storeMs)),
    afterStore: p50p95(photos.map((p) => p.sendMs - p.storeMs)),
    painted: [...new Set(photos.map((p) => p.painted))].join(', '),
  };
}

const ms = (f: { p50: number; p95: number }) => `p50 ${f.p50.toFixed(0)} / p95 ${f.p95.toFixed(0)} ms`;

export async function photoBubbleRow(opts: { webDir: string; quick: boolean; log: (s: string) => void; notes: string[] }): Promise<BenchRow[]> {
  const runs = opts.quick ? 5 : 20;
  opts.log(`row 14a: ${runs} camera photos of 12 MP (EXIF thumbnail), ${runs} without one and ${runs} texts, mobile profile`);
  const stack = await startTestStack({ webDir: opts.webDir, seed: false, logLevel: 'quiet' });
  const db = pool(stack.databaseUrl);
  const client = await openClient('photo', stack.url).catch(async (err: unknown) => {
    await db.end();
    await stack.destroy();
    throw err;
  });
  try {
    const account = await createAccount(db, stack.keys.jwtSecret, 1, 'bench-photo', BENCH_PASSWORD);
    const conv = await createConversation(db, account.id, account.humans[0]!);
    await signIn(client, account.users[0]!.email);
    const { page } = client;
    await page.goto(`${stack.url}/app/chats/${conv}`);
    await page.waitForSelector('form textarea:not([disabled])');
    const drawn = await twelveMegapixelJpeg(page);
    // R12.14: what a phone's camera writes (EXIF with a thumbnail); and the same pixels without any
    // metadata, as a stripped JPEG or an edited export arrives (the path without a preview).
    const camera = cameraJpeg(drawn.photo, drawn.thumb);
    const bare = drawn.photo;
    await setProfile(client, 'mobile');
    const photos: PhotoSample[] = [];
    const barePhotos: PhotoSample[] = [];
    const texts: number[] = [];
    // One unmeasured round warms the decoder, the engine's attachment path and the page.
    for (let i = 0; i <= runs; i++) {
      const p = await sendPhoto(page, camera, `fotka ${i} ${Date.now()}`, READY.preview);
      const t = (await typeAndSend(page, `text ${i} ${Date.now()}`, true)).bubbleMs;
      const b = await sendPhoto(page, bare, `bez exif ${i} ${Date.now()}`);
      if (i === 0) continue;
      photos.push(p);
      barePhotos.push(b);
      texts.push(t);
    }
    const floor = p50p95(await decodeFloor(page, camera, opts.quick ? 5 : 10));
    opts.log(`  camera photo picked → painted: ${photos.map((p) => Math.round(p.paintMs)).join(', ')} ms`);
    opts.log(`  photo without EXIF thumbnail: ${barePhotos.map((p) => Math.round(p.paintMs)).join(', ')} ms; text: ${texts.map(Math.round).join(', ')} ms`);
    const cam = figures(photos);
    const plain = figures(barePhotos);
    const text = p50p95(texts);
    const detail = (f: ReturnType<typeof figures>, ready: string) =>
      `pick → ${ready} ${ms(f.prepare)}; send pressed → bubble painted ${ms(f.send)}, of which send pressed → stored (R12.2's estimate, R12.3's transaction) ${ms(f.store)} ` +
      `and stored → painted (the live query, the object URL, the image's decode, the frame) ${ms(f.afterStore)}; the image painted first: ${f.painted} px`;
    opts.notes.push(
      `Row 14a (load average ${loadavg()[0]!.toFixed(1)} at the end): a ${(camera.length / 2 ** 20).toFixed(1)} MiB camera JPEG of ${PHOTO.width} × ${PHOTO.height}, Orientation ${ORIENTATION}, ` +
        `with a ${EXIF_THUMB.width} × ${EXIF_THUMB.height} EXIF thumbnail (${(drawn.thumb.length / 1024).toFixed(1)} KiB) and a GPS position. ` +
        `Camera photo: ${detail(cam, 'its EXIF preview in the tray (send pressed then, R12.15)')}. ` +
        `Without an EXIF thumbnail (the same pixels, no metadata; 14a-bare): ${detail(plain, 'tray item ready to send (send pressed then)')}. ` +
        `(NaN: a build without the 'poradna:attachment-stored' mark.) ` +
        `Floor of the original's last hop: an <img> of an object URL of the 12 MP JPEG decoded and painted in the same page and profile, no app code, ${ms(floor)}.`,
    );
    const row = (suffix: 'a' | 'a′', which: 'p50' | 'p95'): BenchRow => ({
      row: `14${suffix}`,
      figure: `attachment: a 12 MP camera photo picked → own bubble with its picture painted, mobile profile, ${which} (baseline: a text's Enter → own bubble painted, same page)`,
      poradna: cam.paint[which],
      baseline: text[which],
      unit: 'ms',
      better: 'lower',
      goal: which === 'p50' ? '≤ 150 ms p50' : 'report',
      met: which === 'p50' ? cam.paint.p50 <= 150 : true,
    });
    const bareRow: BenchRow = {
      row: '14a-bare',
      figure: 'attachment: the same photo without an EXIF thumbnail (stripped) picked → own bubble painted, mobile profile, p50 (baseline: a text, same page)',
      poradna: plain.paint.p50,
      baseline: text.p50,
      unit: 'ms',
      better: 'lower',
      goal: 'report',
      met: true,
    };
    return [row('a', 'p50'), row('a′', 'p95'), bareRow];
  } finally {
    await client.close();
    await db.end();
    await stack.destroy();
  }
}

// Row 14a (issue 38): a 12 MP photo picked → the member's own bubble with its thumbnail painted, in
// Debian Chromium on the mobile profile (browser.ts: 4× CPU, 150 ms, 750 kbps up), the Poradňa build
// on a stack of its own. Per sample, all clocks the page's:
//   pick      the attach input's `change` (the picker handed the file over; Playwright's transfer
//             of the bytes is before it and not counted);
//   ready     the tray's item ready to send (since R12.13 at once: the engine prepares the photo
//             after the bubble; before, here, after downscale, re-encode and thumbnail): send is
//             pressed in that same task (Enter on the composer), as if the member tapped it at once;
//   stored    'poradna:attachment-stored' (send-attachments.ts): the message and file committed;
//   painted   the animation frame, then the macrotask, after the bubble's <img> decoded (the local
//             blob, R12.3: the picked original until prepared, then the thumbnail) — as
//             `markAfterPaint` does for the text bubble.
// Baseline: in the same page, interleaved, a text send's Enter → own bubble painted (row 3's figure,
// its 'poradna:bubble-painted' mark): what a photo costs over a text. The online-only comparison
// build cannot send attachments (send-attachments.ts says so in Slovak), so it has no figure here.
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { createAccount, createConversation, pool } from '../tests/sync/helpers/server-db.ts';
import { startTestStack } from '../tests/helpers/stack.ts';
import { openClient, setProfile, signIn } from './browser.ts';
import { BENCH_PASSWORD } from './generate.ts';
import { typeAndSend } from './rows-send.ts';
import { p50p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

/** 12 MP as a phone takes it: 4,000 × 3,000. */
const PHOTO = { width: 4000, height: 3000 };

interface PhotoSample {
  /** pick → tray item prepared, send pressed → bubble painted, and pick → bubble painted (ms). */
  prepareMs: number;
  sendMs: number;
  paintMs: number;
  /** send pressed → the message and its file stored ('poradna:attachment-stored'; NaN in a build without the mark). */
  storeMs: number;
}

/** A 12 MP JPEG drawn by the page (gradients and noise, so it compresses like a photo, ~2–4 MB). */
async function twelveMegapixelJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async ({ width, height }) => {
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
    const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })).arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }, PHOTO);
  return Buffer.from(base64, 'base64');
}

/** Arms the page for one photo: times the pick, presses send once the item is prepared, times the bubble's paint. */
async function armPhoto(page: Page, label: string): Promise<void> {
  await page.evaluate((label) => {
    const ta = document.querySelector<HTMLTextAreaElement>('form textarea');
    if (!ta) throw new Error('no composer');
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(ta, label);
    ta.dispatchEvent(new Event('input', { bubbles: true }));
    const w = window as unknown as { __photo?: Promise<{ pick: number; ready: number; painted: number }> };
    w.__photo = new Promise((resolve, reject) => {
      let pick = NaN;
      let ready = NaN;
      document.addEventListener('change', () => (pick = performance.now()), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (Number.isNaN(ready) && document.querySelector('[data-testid="attachment-draft"][data-ready="true"]')) {
          ready = performance.now();
          ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        }
        const bubble = [...document.querySelectorAll<HTMLElement>('[data-testid="message"][data-own="true"]')].find((b) => b.textContent?.includes(label));
        const img = bubble?.querySelector('img');
        if (!img?.getAttribute('src')) return;
        observer.disconnect();
        img
          .decode()
          .then(() => requestAnimationFrame(() => setTimeout(() => resolve({ pick, ready, painted: performance.now() }), 0)))
          .catch(reject);
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready', 'src'] });
    });
  }, label);
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

async function sendPhoto(page: Page, photo: Buffer, label: string): Promise<PhotoSample> {
  await armPhoto(page, label);
  await page.setInputFiles('[data-testid="attach-input"]', { name: 'fotka.jpg', mimeType: 'image/jpeg', buffer: photo });
  const t = await page.evaluate(() => (window as unknown as { __photo: Promise<{ pick: number; ready: number; painted: number }> }).__photo);
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
  return { prepareMs: t.ready - t.pick, sendMs: t.painted - t.ready, paintMs: t.painted - t.pick, storeMs: stored - t.ready };
}

export async function photoBubbleRow(opts: { webDir: string; quick: boolean; log: (s: string) => void; notes: string[] }): Promise<BenchRow[]> {
  const runs = opts.quick ? 5 : 20;
  opts.log(`row 14a: ${runs} photos of 12 MP and ${runs} texts, mobile profile`);
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
    const photo = await twelveMegapixelJpeg(page);
    await setProfile(client, 'mobile');
    const photos: PhotoSample[] = [];
    const texts: number[] = [];
    // One unmeasured pair warms the decoder, the engine's attachment path and the page.
    for (let i = 0; i <= runs; i++) {
      const p = await sendPhoto(page, photo, `fotka ${i} ${Date.now()}`);
      const t = (await typeAndSend(page, `text ${i} ${Date.now()}`, true)).bubbleMs;
      if (i === 0) continue;
      photos.push(p);
      texts.push(t);
    }
    const floor = p50p95(await decodeFloor(page, photo, opts.quick ? 5 : 10));
    opts.log(`  photo picked → painted: ${photos.map((p) => Math.round(p.paintMs)).join(', ')} ms; text: ${texts.map(Math.round).join(', ')} ms`);
    const paint = p50p95(photos.map((p) => p.paintMs));
    const prepare = p50p95(photos.map((p) => p.prepareMs));
    const send = p50p95(photos.map((p) => p.sendMs));
    const store = p50p95(photos.map((p) => p.storeMs));
    const afterStore = p50p95(photos.map((p) => p.sendMs - p.storeMs));
    const text = p50p95(texts);
    opts.notes.push(
      `Row 14a (load average ${loadavg()[0]!.toFixed(1)} at the end): a ${(photo.length / 2 ** 20).toFixed(1)} MiB JPEG of ${PHOTO.width} × ${PHOTO.height}. ` +
        `Pick → tray item ready to send (before R12.13 after preparing it: decode, downscale to 2,048 px, re-encode, thumbnail; since, at once) p50 ${prepare.p50.toFixed(0)} / p95 ${prepare.p95.toFixed(0)} ms; ` +
        `send pressed → bubble with its thumbnail painted (R12.3's one transaction, the live query, the thumbnail's decode) p50 ${send.p50.toFixed(0)} / p95 ${send.p95.toFixed(0)} ms, ` +
        `of which send pressed → stored (R12.2's estimate, R12.3's transaction with the picked bytes) p50 ${store.p50.toFixed(0)} / p95 ${store.p95.toFixed(0)} ms ` +
        `and stored → painted (the live query, the object URL, the image's decode, the frame) p50 ${afterStore.p50.toFixed(0)} / p95 ${afterStore.p95.toFixed(0)} ms ` +
        `(NaN: a build without the 'poradna:attachment-stored' mark). ` +
        `Floor of the last hop: an <img> of an object URL of the same JPEG decoded and painted in the same page and profile, no app code, p50 ${floor.p50.toFixed(0)} / p95 ${floor.p95.toFixed(0)} ms.`,
    );
    const row = (suffix: 'a' | 'a′', which: 'p50' | 'p95'): BenchRow => ({
      row: `14${suffix}`,
      figure: `attachment: a 12 MP photo picked → own bubble with its thumbnail painted, mobile profile, ${which} (baseline: a text's Enter → own bubble painted, same page)`,
      poradna: paint[which],
      baseline: text[which],
      unit: 'ms',
      better: 'lower',
      goal: which === 'p50' ? '≤ 150 ms p50' : 'report',
      met: which === 'p50' ? paint.p50 <= 150 : true,
    });
    return [row('a', 'p50'), row('a′', 'p95')];
  } finally {
    await client.close();
    await db.end();
    await stack.destroy();
  }
}

// Shared steps of the attachment journeys (issue 38: attachments.e2e.ts, attachments-stored.e2e.ts,
// attachments-chatwoot.e2e.ts): a JPEG the browser draws, the attach button's system picker, and
// opening a fresh chat once the device holds it.
import { expect, type Page } from '@playwright/test';

export const composer = (page: Page) => page.getByRole('textbox', { name: 'Správa' });
export const drafts = (page: Page) => page.getByTestId('attachment-draft');
export const ownBubble = (page: Page, text: string) => page.locator('[data-testid="message"][data-own="true"]', { hasText: text });

/**
 * A JPEG encoded by the browser, `width` × `height`, its left half one colour and its right half
 * another (so orientation and cropping show in two pixels), as bytes.
 */
export async function twoColourJpeg(page: Page, size: { width: number; height: number }, colours: { left: string; right: string }): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ width, height, left, right }) => {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = left;
      ctx.fillRect(0, 0, width / 2, height);
      ctx.fillStyle = right;
      ctx.fillRect(width / 2, 0, width / 2, height);
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 })).arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    { ...size, ...colours },
  );
  return Buffer.from(base64, 'base64');
}

/** Picks files through the attach button's system picker, as a member does. */
export async function pick(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Priložiť súbor', exact: true }).click();
  await (await chooser).setFiles(files);
}

/** Opens the fresh chat once the device holds it (its greeting shows; the composer is then open). */
export async function openChat(page: Page, conversationId: string, origin = ''): Promise<void> {
  await page.goto(`${origin}/app/chats/${conversationId}`);
  await expect(page.locator('[data-testid="message"][data-own="false"]', { hasText: 'Dobrý deň' })).toBeVisible();
  await expect(composer(page)).toBeEnabled();
}

/** The bytes behind a blob: URL of the page, and the image's decoded size and two pixel colours. */
export async function blobFacts(page: Page, url: string) {
  const facts = await page.evaluate(async (src) => {
    const blob = await (await fetch(src)).blob();
    const bitmap = await createImageBitmap(blob, { imageOrientation: 'none' });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const at = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return { type: blob.type, base64: btoa(s), width: bitmap.width, height: bitmap.height, top: at(bitmap.width / 2, 5), bottom: at(bitmap.width / 2, bitmap.height - 5) };
  }, url);
  return { ...facts, bytes: new Uint8Array(Buffer.from(facts.base64, 'base64')) };
}

/**
 * The tray empties once the message and its files are stored on the device (AttachmentComposer: files
 * leave it only then). A 7 MB file is stored 0.2 s after Enter here quiet and 0.8–0.9 s beside eight
 * busy cores and a disk writer, yet CI's run of 2026-12-02 still showed the tray after 10 s. The bound
 * is the journey's other waits' (30 s); a failure says what the page was doing: whether Enter was
 * taken (the composer's text, its mode), whether the store ended (the 'poradna:attachment-stored'
 * marks), and which Web Locks were held or waited for (the writers lock gates a send, R1.13).
 */
export async function untilTrayEmpty(page: Page, timeout = 30_000): Promise<void> {
  try {
    await expect(drafts(page)).toHaveCount(0, { timeout });
  } catch (err) {
    const state = await page
      .evaluate(async () => {
        const form = document.querySelector('form[data-mode]');
        const locks = (await navigator.locks?.query?.()) ?? { held: [], pending: [] };
        return {
          composer: document.querySelector<HTMLTextAreaElement>('textarea')?.value ?? null,
          mode: form?.getAttribute('data-mode') ?? null,
          tray: [...document.querySelectorAll('[data-testid="attachment-draft"]')].map((el) => el.getAttribute('data-ready')),
          stored: performance.getEntriesByName('poradna:attachment-stored').length,
          notice: document.querySelector('[data-testid="chat-notice"]')?.textContent ?? null,
          held: (locks.held ?? []).map((l) => `${l.name} ${l.mode}`),
          pending: (locks.pending ?? []).map((l) => `${l.name} ${l.mode}`),
        };
      })
      .catch((e: unknown) => ({ unreadable: String(e) }));
    throw new Error(`the tray did not empty within ${timeout} ms: ${JSON.stringify(state)}`, { cause: err });
  }
}

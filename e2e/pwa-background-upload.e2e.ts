// Issue 38 (R12.12), a file upload finished with no tab open: a PDF sent offline in a tab that is
// then closed is uploaded by the service worker's Background Sync (the engine's uploader over fetch,
// sync/background/uploads.ts), and its message reaches the server exactly once; the next open shows
// it sent with its file card. The sync event is fired through CDP (ServiceWorker.dispatchSyncEvent)
// from a blank page, as Chromium does when the network returns (as pwa-background.e2e.ts does).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { composer, drafts, openChat, pick } from './attachment-helpers.ts';
import { freshChat } from './defects-helpers.ts';
import { dispatchSync, launchProfile, ownBubble, registrationId, serverCount, signInControlled, syncTags } from './pwa-helpers.ts';

/** Stored messages with this text and one stored attachment named `name`, as the service role sees them. */
async function storedWithFile(baseURL: string, text: string, name: string): Promise<number> {
  const key = process.env.E2E_SERVICE_KEY ?? '';
  const res = await fetch(`${baseURL}/rest/v1/messages?select=payload&text=eq.${encodeURIComponent(text)}`, { headers: { apikey: key, Authorization: `Bearer ${key}` } });
  if (!res.ok) return -1;
  const rows = (await res.json()) as { payload: { attachments?: { name: string }[] } }[];
  return rows.filter((r) => r.payload.attachments?.length === 1 && r.payload.attachments[0]!.name === name).length;
}

test('R12.12 a file sent offline in a tab that then closed is uploaded and sent by Background Sync, once, with no app tab open', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const { user, conversationId } = await freshChat(origin, 'bgupload');
  const profile = await mkdtemp(join(tmpdir(), 'poradna-bgup-'));
  const context = await launchProfile(profile, origin);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page, user.email);
    await openChat(page, conversationId);

    await context.setOffline(true);
    const text = `Súbor na pozadí ${Date.now()}`;
    await pick(page, [{ name: 'zadanie.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') }]);
    await expect(drafts(page).first()).toHaveAttribute('data-ready', 'true');
    await composer(page).fill(text);
    await composer(page).press('Enter');
    await expect(ownBubble(page, text)).toHaveAttribute('data-state', 'sending');
    await expect.poll(() => syncTags(page)).toContain('poradna-outbox');

    // The app's only tab closes with the file still on the device; then the network returns.
    await page.close();
    await context.setOffline(false);
    const blank = await context.newPage();
    const cdp = await context.newCDPSession(blank);
    const reg = await registrationId(cdp, origin);
    await dispatchSync(cdp, origin, reg);
    let dispatched = Date.now();
    // An event that fails (its fetches still saw the emulated offline a moment after it was lifted)
    // rejects, and Chromium retries it minutes later (sw.ts); the test stands in for that retry with
    // another event every few seconds while nothing is stored. Once is still asserted below. (The run of
    // 241ed9f: 0 stored after one event and 30 s; the retry of the journey stored it in 7 s.)
    await expect
      .poll(
        async () => {
          const stored = await storedWithFile(origin, text, 'zadanie.pdf');
          if (stored === 0 && Date.now() - dispatched > 5_000) {
            await dispatchSync(cdp, origin, reg);
            dispatched = Date.now();
          }
          return stored;
        },
        { timeout: 30_000, intervals: [1_000, 2_000] },
      )
      .toBe(1);
    expect(context.pages().filter((p) => p.url().startsWith(origin))).toHaveLength(0);

    // A second event finds nothing; the next open shows the message sent with its file, once.
    await dispatchSync(cdp, origin, reg);
    const again = await context.newPage();
    await again.goto(`/app/chats/${conversationId}`);
    await expect(ownBubble(again, text)).toHaveAttribute('data-state', 'sent', { timeout: 15_000 });
    await expect(ownBubble(again, text)).toContainText('zadanie.pdf');
    await expect(ownBubble(again, text)).toHaveCount(1);
    expect(await serverCount(origin, text)).toBe(1);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

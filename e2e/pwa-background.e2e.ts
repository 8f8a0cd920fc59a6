// Issue 8, delivery with no tab open: a message queued offline in a tab that is then closed reaches
// the server exactly once through the service worker's Background Sync flush (the engine's own push
// code, under the leader's lock), and the next open shows it as sent. The sync event is fired through
// CDP (ServiceWorker.dispatchSyncEvent) from a blank page, as Chromium does when the network returns.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dispatchSync, launchProfile, openFirstChat, ownBubble, registrationId, sendFromComposer, serverCount, signInControlled, syncTags } from './pwa-helpers.ts';
import { recordWorkerLog } from './worker-diagnostics.ts';
import { expectOwnBubbleOnce } from './chat-helpers.ts';

test('a message queued offline in a closed tab is delivered by Background Sync, once, with no app tab open', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const profile = await mkdtemp(join(tmpdir(), 'poradna-bg-'));
  const context = await launchProfile(profile, origin);
  try {
    const workerLog = recordWorkerLog(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page);
    const chatPath = await openFirstChat(page);

    await context.setOffline(true);
    const text = `Doručené na pozadí ${Date.now()}`;
    await sendFromComposer(page, text);
    await expect(ownBubble(page, text)).toHaveAttribute('data-state', 'sending');
    // The page asked the browser for a Background Sync of the outbox.
    await expect.poll(() => syncTags(page)).toContain('poradna-outbox');

    // Close the app's only tab; nothing of the app runs in a page any more.
    await page.close();
    expect(await serverCount(origin, text)).toBe(0);
    await context.setOffline(false);
    const blank = await context.newPage();
    expect(context.pages().filter((p) => p.url().startsWith(origin))).toHaveLength(0);
    const cdp = await context.newCDPSession(blank);
    const reg = await registrationId(cdp, origin);
    await dispatchSync(cdp, origin, reg);
    await expect.poll(() => serverCount(origin, text), { timeout: 30_000 }).toBe(1);
    expect(context.pages().filter((p) => p.url().startsWith(origin))).toHaveLength(0);

    // A second sync event finds nothing to send; the next open shows the message as sent, once.
    const empty = workerLog.ended('empty');
    await dispatchSync(cdp, origin, reg);
    await expect.poll(() => workerLog.ended('empty')).toBeGreaterThan(empty);
    expect(await serverCount(origin, text)).toBe(1);
    const again = await context.newPage();
    await again.goto(chatPath);
    await expect(ownBubble(again, text)).toHaveAttribute('data-state', 'sent', { timeout: 15_000 });
    await expectOwnBubbleOnce(again, text);
    expect(await serverCount(origin, text)).toBe(1);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test('a sync event while the tab is open and flushing stores the message once', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const profile = await mkdtemp(join(tmpdir(), 'poradna-bg2-'));
  const context = await launchProfile(profile, origin);
  try {
    const workerLog = recordWorkerLog(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page);
    await openFirstChat(page);
    const cdp = await context.newCDPSession(page);
    const reg = await registrationId(cdp, origin);

    await context.setOffline(true);
    const texts = [1, 2, 3].map((i) => `Súbeh ${i} ${Date.now()}`);
    for (const t of texts) await sendFromComposer(page, t);
    // Back online: the tab's leader flushes and the worker gets the sync event at the same moment.
    await context.setOffline(false);
    await Promise.all([dispatchSync(cdp, origin, reg), dispatchSync(cdp, origin, reg)]);
    for (const t of texts) {
      await expect(ownBubble(page, t)).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
      await expect.poll(() => serverCount(origin, t), { timeout: 10_000 }).toBe(1);
    }
    // Every event the worker got (the two dispatched, and Chromium's own on the way online) has ended.
    await expect.poll(() => workerLog.ended(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => workerLog.running(), { timeout: 20_000 }).toBe(0);
    for (const t of texts) expect(await serverCount(origin, t)).toBe(1);
    for (const t of texts) await expectOwnBubbleOnce(page, t);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

// Issue 8, storage eviction: when the browser deletes the site's IndexedDB while the user stays signed
// in, the next open says so, the chats come back from the server, and the message that was still
// queued is sent again under its own correlation id — stored on the server exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { launchProfile, openFirstChat, ownBubble, sendFromComposer, serverCount, signInControlled } from './pwa-helpers.ts';
import { expectOwnBubbleOnce } from './chat-helpers.ts';

test('after the browser evicts IndexedDB the app restores from the server, tells the user and sends the lost message once', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const profile = await mkdtemp(join(tmpdir(), 'poradna-evict-'));
  const context = await launchProfile(profile, origin);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page);
    await expect(page.getByTestId('conversation-row').first()).toBeVisible();
    const rowsBefore = await page.getByTestId('conversation-row').count();
    const chatPath = await openFirstChat(page);

    await context.setOffline(true);
    const text = `Po vymazaní úložiska ${Date.now()}`;
    await sendFromComposer(page, text);
    await expect(ownBubble(page, text)).toHaveAttribute('data-state', 'sending');
    // The unsent message is mirrored outside IndexedDB.
    await expect.poll(() => page.evaluate((t) => Object.keys(localStorage).some((k) => (localStorage.getItem(k) ?? '').includes(t)), text)).toBe(true);

    // The tab closes; the browser then evicts every IndexedDB database of the origin.
    await page.close();
    const blank = await context.newPage();
    const cdp = await context.newCDPSession(blank);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
    await context.setOffline(false);
    // Nothing delivered it before the eviction (the worker's session record went with IndexedDB), so
    // only the re-queued copy can bring it to the server.
    expect(await serverCount(origin, text)).toBe(0);

    const again = await context.newPage();
    await again.goto('/app/chats');
    await expect(again.getByText('Prehliadač vymazal miestne údaje. Obnovili sme ich zo servera.')).toBeVisible({ timeout: 20_000 });
    await expect(again.getByText('1 neodoslanú správu sme znovu zaradili na odoslanie.')).toBeVisible();
    await expect.poll(() => again.getByTestId('conversation-row').count(), { timeout: 15_000 }).toBe(rowsBefore);

    await again.goto(chatPath);
    await expect(ownBubble(again, text)).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
    await expect.poll(() => serverCount(origin, text), { timeout: 10_000 }).toBe(1);
    await again.waitForTimeout(3000);
    expect(await serverCount(origin, text)).toBe(1);
    await expectOwnBubbleOnce(again, text);

    // The notice is shown once: a further reload finds the database and says nothing.
    await again.reload();
    await expectOwnBubbleOnce(again, text);
    await again.waitForTimeout(2000);
    await expect(again.getByText('Prehliadač vymazal miestne údaje. Obnovili sme ich zo servera.')).toHaveCount(0);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

// R1.12/R1.13 in a real browser (real Web Locks, BroadcastChannel, IndexedDB): the only tab of the
// app starts a send's request before its IndexedDB write transaction (the engine's marks show the
// request first); with a second tab open its sends are not held up, the leader's requests wait for
// the write again, and a message typed in the second tab just before one in the first reaches the
// server first (R1.8); once the second tab is closed the first is fast again.
import { writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { freshChat } from './defects-helpers.ts';
import { collectConsole, syncDump } from './sync-dump.ts';
import { storeSession } from './stored-session.ts';

interface SendTimes {
  /** The request started before the write transaction's callback (R1.12's fast path). */
  first: boolean;
  /** ms from the send command to its request, and to its write transaction's start. */
  toRequest: number;
  toTx: number;
  /** Why the fast path declined it (sync/marks.ts SlowReason), or null. */
  slow: string | null;
}

/** The last send's marks on this page (sync/marks.ts). */
async function lastSendTimes(page: Page): Promise<SendTimes> {
  const handle = await page.waitForFunction(
    () => {
      const id = (m: PerformanceMark) => (m.detail as { correlationId: string }).correlationId;
      const marks = (name: string) => performance.getEntriesByName(name) as PerformanceMark[];
      const txs = marks('poradna:send:tx');
      const tx = txs[txs.length - 1];
      if (!tx) return null;
      const request = marks('poradna:send:request').find((m) => id(m) === id(tx));
      const command = marks('poradna:send:command').find((m) => id(m) === id(tx));
      if (!request || !command) return null;
      const slow = marks('poradna:send:slow').find((m) => id(m) === id(tx));
      const reason = slow ? (slow.detail as { reason: string }).reason : null;
      return { first: request.startTime < tx.startTime, toRequest: request.startTime - command.startTime, toTx: tx.startTime - command.startTime, slow: reason };
    },
    null,
    { timeout: 20_000 },
  );
  return (await handle.jsonValue()) as SendTimes;
}

const requestWentFirst = async (page: Page) => (await lastSendTimes(page)).first;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Sends `n` messages one after another; the median command → request and command → transaction times. */
async function measure(page: Page, label: string, n: number): Promise<{ fast: number; toRequest: number; toTx: number; reasons: string[] }> {
  const times: SendTimes[] = [];
  for (let i = 0; i < n; i++) {
    await send(page, `${label} ${i}`);
    times.push(await lastSendTimes(page));
    // R1.8: a send typed while the previous one is still on the wire rightly waits in the outbox (the
    // in-transaction path); each measured send starts with nothing of the conversation queued.
    await expect(own(page, `${label} ${i}`)).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  }
  return {
    fast: times.filter((x) => x.first).length,
    toRequest: median(times.map((x) => x.toRequest)),
    toTx: median(times.map((x) => x.toTx)),
    reasons: times.map((x) => (x.first ? 'fast' : (x.slow ?? 'unmarked'))),
  };
}

/**
 * Types and sends, and returns only once the message is this tab's own bubble. The chat is a human
 * specialist's (freshChat), so no AI answer disables the composer between sends: with the streamed
 * answers of issue 39 each of the 24 sends to an AI chat waited for a whole answer, and the journey
 * ran past its minute (the landing run of 8f921b8). Should the field still refuse the text, it is
 * typed again. Text that did enter the field must either stay there (a send ignored: pressed again)
 * or become a bubble; a field emptied without a send would be lost typed text (invariant 1) and fails.
 */
async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Správa' });
  const bubble = own(page, text);
  for (;;) {
    await expect(composer).toBeEnabled({ timeout: 60_000 });
    await composer.fill(text);
    if ((await composer.inputValue()) !== text) {
      console.log(`send-tabs: "${text}" did not enter the composer (disabled: ${await composer.isDisabled()}); typing again`);
      continue;
    }
    await composer.press('Enter');
    try {
      await expect(bubble).toHaveCount(1, { timeout: 5000 });
      await expect(composer).not.toHaveValue(text);
      return;
    } catch {
      const left = await composer.inputValue();
      if ((await bubble.count()) > 0 && left !== text) return;
      if (left !== text) throw new Error(`the composer held "${text}" and now holds "${left}", yet no bubble of it appeared: typed text lost`);
    }
  }
}

const own = (page: Page, text: string) => page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });

async function serverOrder(baseURL: string, stamp: number): Promise<string[]> {
  const key = process.env.E2E_SERVICE_KEY ?? '';
  const res = await fetch(`${baseURL}/rest/v1/messages?select=text&text=like.*${stamp}*&direction=eq.user&order=created_at.asc`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
  expect(res.ok).toBe(true);
  return ((await res.json()) as { text: string }[]).map((m) => m.text);
}

// A failure prints what both tabs' engines held (a typed message once vanished here in CI, #19's note).
const watched: { pages: Page[]; lines: string[]; stamp: string } = { pages: [], lines: [], stamp: '' };
test.afterEach(async ({ baseURL }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    const dumps = await Promise.all(watched.pages.map((p) => syncDump(p, watched.stamp)));
    const server = watched.stamp ? await serverOrder(baseURL!, Number(watched.stamp)).catch((err: unknown) => String(err)) : null;
    const body = JSON.stringify({ console: watched.lines, server, tabs: dumps }, null, 1);
    console.log(`send-tabs failure dump:\n${body}`);
    const path = testInfo.outputPath('sync-dump.json');
    await writeFile(path, body);
    await testInfo.attach('sync-dump.json', { path, contentType: 'application/json' });
  }
  watched.pages = [];
  watched.lines = [];
});

test('the only tab sends before IndexedDB answers; a second tab is never held up and typed order stays server order', async ({ page, context, baseURL }) => {
  const stamp = Date.now();
  watched.pages.push(page);
  watched.stamp = String(stamp);
  collectConsole(page, 'tab1', watched.lines);
  const { user, conversationId } = await freshChat(baseURL!, 'send-tabs');
  await storeSession(page, user.email);
  await page.goto(`/app/chats/${conversationId}`);
  await expect(page.getByTestId('message').first()).toBeVisible();
  const t = (s: string) => `${s} ${stamp}`;

  // Alone: the request goes before the write transaction (R1.12's fast path; solo after a reload of its view).
  await expect
    .poll(async () => {
      await send(page, t(`Sám ${Math.random().toString(36).slice(2, 6)}`));
      return requestWentFirst(page);
    }, { timeout: 15_000, message: 'the only tab sends before its IndexedDB write' })
    .toBe(true);

  const alone = await measure(page, t('Meranie sám'), 10);

  // A second tab: it writes sends only holding the writers lock, which the leader gives up at once.
  const second = await context.newPage();
  watched.pages.push(second);
  collectConsole(second, 'tab2', watched.lines);
  await second.goto(`/app/chats/${conversationId}`);
  await expect(second.getByTestId('message').first()).toBeVisible();
  const shared = await measure(page, t('Meranie s druhou kartou'), 10);
  // Same run, same page: the fast path against the in-transaction one (bench row 4c's sub-hops).
  console.log(
    `R1.12 send command → request p50: alone ${alone.toRequest.toFixed(1)} ms (${alone.fast}/10 before the transaction; ` +
      `its transaction started ${alone.toTx.toFixed(1)} ms after the command), with a second tab ${shared.toRequest.toFixed(1)} ms (${shared.fast}/10)`,
  );
  // Alone, no send is declined for another tab: each goes fast, unless a write or a session check of
  // this tab's own was under way at that moment (the view untrusted, the session gate asking), which
  // the engine marks; one in ten of those was seen at 100 % CPU (the run of a317721). With a second
  // tab open, every send is declined because of it.
  expect(alone.reasons.filter((r) => r === 'not-solo' || r === 'unmarked'), alone.reasons.join(', ')).toEqual([]);
  expect(alone.fast, alone.reasons.join(', ')).toBeGreaterThanOrEqual(8);
  expect(shared.reasons, shared.reasons.join(', ')).toEqual(Array(10).fill('not-solo'));
  await send(second, t('Z druhej karty'));
  await send(page, t('Z prvej karty'));
  expect(await requestWentFirst(page)).toBe(false); // not solo: the request waited for the write's reads
  for (const p of [page, second]) {
    await expect(own(p, t('Z druhej karty'))).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
    await expect(own(p, t('Z prvej karty'))).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  }
  const order = await serverOrder(baseURL!, stamp);
  expect(order.slice(-2)).toEqual([t('Z druhej karty'), t('Z prvej karty')]);

  // The second tab closes: the first is solo again.
  await second.close();
  await expect
    .poll(async () => {
      await send(page, t(`Znova sám ${Math.random().toString(36).slice(2, 6)}`));
      return requestWentFirst(page);
    }, { timeout: 15_000, message: 'fast again once the other tab closed' })
    .toBe(true);
  await expect.poll(async () => (await serverOrder(baseURL!, stamp)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(24);
});

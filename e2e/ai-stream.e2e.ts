// Streamed AI replies in Chromium (issue 39, sync/SPEC.md R13): an answer from a streaming
// OpenAI-compatible double grows in its bubble with a caret and ends whole; 'Zastaviť' stops an
// endless one (the double sees its request aborted) and the bubble says it was stopped. Own stack
// with the double in front of its AI worker, serving the build in E2E_WEB_DIR (or dist). Phone and
// desktop screenshots of a streaming answer go to SHOTS_DIR when it is set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { aiJourneyHooks } from './ai-stack.ts';
import { storeSession } from './stored-session.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(150_000);

const AI_CHAT = '00000000-0000-4000-b000-000000000001'; // demo with the AI assistant (seed.sql)

const env = aiJourneyHooks();

async function ask(page: Page, text: string): Promise<void> {
  await storeSession(page, 'demo@poradna.test', { origin: env.origin });
  await page.goto(`${env.origin}/app/chats/${AI_CHAT}`);
  await expect(page.getByTestId('message').first()).toBeVisible();
  const composer = page.getByRole('textbox', { name: 'Správa' });
  await composer.fill(text);
  await composer.press('Enter');
}

const streaming = (page: Page) => page.locator('[data-testid="bubble"][data-ai="streaming"]');

test('R13.1 R13.8 an answer streams into one bubble with a caret and ends whole', async ({ page }) => {
  const chunks = Array.from({ length: 24 }, (_, i) => `${i ? ' ' : ''}Krok ${i + 1}: skontrolujte kampane a rozpočet.`);
  // Held after 6 chunks: the answer is on screen mid-stream for as long as the checks take.
  env.ai.setStream({ chunks, delayMs: 50, then: 'done', holdAt: 6 });
  await ask(page, 'Ako mám postupovať s kampaňou?');
  await expect(streaming(page)).toBeVisible({ timeout: 30_000 });
  await expect(streaming(page)).toHaveClass(/ai-streaming/);
  await expect(page.getByTestId('ai-stop')).toHaveText('Zastaviť');
  // Issue 39: 'Zastaviť' is a real button, a touch target of at least 44 px, not small text.
  const stopBox = await page.getByRole('button', { name: 'Zastaviť' }).boundingBox();
  expect(stopBox?.height ?? 0).toBeGreaterThanOrEqual(44);
  expect(await page.getByTestId('ai-stop').evaluate((b) => getComputedStyle(b).borderTopStyle)).toBe('solid');
  // What the server has so far, in the bubble, while it is still being written.
  await expect(streaming(page)).toHaveText(chunks.slice(0, 6).join(''));
  const shots = process.env.SHOTS_DIR;
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'streaming-phone.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: join(shots, 'streaming-desktop.png') });
  }
  env.ai.release();
  const whole = chunks.join('');
  const bubble = page.getByTestId('bubble').filter({ hasText: 'Krok 24:' });
  await expect(bubble).toBeVisible({ timeout: 30_000 });
  await expect(bubble).not.toHaveAttribute('data-ai', /.+/);
  expect((await bubble.innerText()).replace(/\s+/g, ' ').trim()).toBe(whole);
  await expect(page.getByTestId('ai-stop')).toHaveCount(0);
  await expect(page.getByRole('log')).toContainText('Krok 24:');
});

test('R13.5 Zastaviť stops an answer being written: the provider request is aborted and the bubble says so', async ({ page }) => {
  env.ai.setStream({ chunks: [' Ďalší odsek odpovede.'], delayMs: 100, then: 'repeat' });
  await ask(page, 'Napíš mi veľmi dlhú odpoveď');
  await expect(streaming(page)).toBeVisible({ timeout: 30_000 });
  const call = env.ai.calls.at(-1)!;
  await page.getByTestId('ai-stop').click();
  await expect(page.getByText('Odpoveď bola zastavená.')).toBeVisible({ timeout: 10_000 });
  expect(call.abortedAt).toBeDefined();
  await expect(streaming(page)).toHaveCount(0);
  const shots = process.env.SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, 'stopped-phone.png') });
});

test('R13.1 R13.8 a reload mid-answer shows what was written so far, the answer goes on in the same bubble and ends whole, once', async ({ page }) => {
  const chunks = Array.from({ length: 12 }, (_, i) => `${i ? ' ' : ''}Bod ${i + 1}: merajte konverzie.`);
  env.ai.setStream({ chunks, delayMs: 50, then: 'done', holdAt: 5 });
  await ask(page, 'Ako merať výsledky kampane?');
  await expect(streaming(page)).toHaveText(chunks.slice(0, 5).join(''), { timeout: 30_000 });
  // The page goes away mid-answer and comes back: the half-written answer is read from the device
  // (and the server), still marked as being written, with its Stop.
  await page.reload();
  await expect(streaming(page)).toHaveText(chunks.slice(0, 5).join(''), { timeout: 30_000 });
  await expect(page.getByTestId('ai-stop')).toBeVisible();
  env.ai.release();
  const bubble = page.getByTestId('bubble').filter({ hasText: 'Bod 12:' });
  await expect(bubble).toBeVisible({ timeout: 30_000 });
  await expect(bubble).not.toHaveAttribute('data-ai', /.+/);
  expect((await bubble.innerText()).replace(/\s+/g, ' ').trim()).toBe(chunks.join(''));
  // One bubble for the answer (its rows were updated in place, never a second copy).
  await expect(page.getByTestId('bubble').filter({ hasText: 'Bod 1:' })).toHaveCount(1);
  await expect(page.getByTestId('ai-stop')).toHaveCount(0);
});

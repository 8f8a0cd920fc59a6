// Safe updates (issue 8): a new build served by a restarted stack updates the app exactly once, and
// only after the message queued offline is delivered and the half-typed draft is gone. Two builds of
// the app (marker a and b on <html data-build>) are made once, then served in turn on one DATA_DIR.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startTestStack, type TestStack } from '../tests/helpers/stack.ts';
import { launchProfile, signInControlled } from './pwa-helpers.ts';

const WEB_A = process.env.E2E_WEB_A ?? '';
const WEB_B = process.env.E2E_WEB_B ?? '';

function buildVariant(outDir: string, id: string): void {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, VITE_BUILD_ID: id },
    stdio: 'ignore',
  });
}

async function serverCount(stack: TestStack, text: string): Promise<number> {
  const key = stack.keys.serviceRoleKey;
  const res = await fetch(`${stack.url}/rest/v1/messages?select=id&text=eq.${encodeURIComponent(text)}`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
  if (!res.ok) return -1;
  return ((await res.json()) as unknown[]).length;
}

const buildOf = (page: Page) => page.evaluate(() => document.documentElement.dataset['build'] ?? '');

test('a new build updates the app exactly once, after the queued message and the draft are safe', async () => {
  test.setTimeout(180_000);
  const root = await mkdtemp(join(tmpdir(), 'poradna-upd-'));
  const webA = WEB_A || join(root, 'web-a');
  const webB = WEB_B || join(root, 'web-b');
  if (!WEB_A) buildVariant(webA, 'a');
  if (!WEB_B) buildVariant(webB, 'b');
  const dataDir = join(root, 'data');
  const profile = join(root, 'profile');
  let stack = await startTestStack({ webDir: webA }, { dataDir });
  const context = await launchProfile(profile, stack.url);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInControlled(page);
    expect(await buildOf(page)).toBe('a');

    const row = page.getByTestId('conversation-row').first();
    await expect(row).toBeVisible();
    await row.click();
    await expect(page.getByTestId('message').first()).toBeVisible();

    // Offline: one message queued, one draft typed but not sent.
    await context.setOffline(true);
    const composer = page.getByRole('textbox', { name: 'Správa' });
    const stamp = Date.now();
    const queued = `Počas aktualizácie ${stamp}`;
    const draft = `Rozpísaná správa ${stamp}`;
    await composer.fill(queued);
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    const bubble = page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: queued });
    await expect(bubble).toHaveAttribute('data-state', 'sending');
    await composer.fill(draft);

    // The stack restarts on the same port and DATA_DIR, now serving build b.
    const port = stack.port;
    await stack.stop();
    stack = await startTestStack({ webDir: webB, port }, { dataDir });

    let loads = 0;
    page.on('load', () => loads++);
    await context.setOffline(false);
    // Let the browser find build b (as it would on its periodic or visibility check).
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration('/'))?.update();
    });
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.waiting !== null), { timeout: 20_000 })
      .toBe(true);

    // The queued message is delivered exactly once; the draft still holds the update back.
    await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
    await expect.poll(() => serverCount(stack, queued), { timeout: 10_000 }).toBe(1);
    await page.waitForTimeout(7_000); // longer than the update gate's recheck interval
    expect(loads).toBe(0);
    expect(await buildOf(page)).toBe('a');
    await expect(composer).toHaveValue(draft);

    // Clearing the draft lets the waiting version activate: exactly one reload, into build b.
    await composer.fill('');
    await expect.poll(() => buildOf(page).catch(() => ''), { timeout: 20_000 }).toBe('b');
    expect(loads).toBe(1);
    await page.waitForTimeout(30_000); // no reload loop
    expect(loads).toBe(1);
    expect(await buildOf(page)).toBe('b');
    expect(await serverCount(stack, queued)).toBe(1);
    await expect(page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: queued })).toHaveCount(1);
  } finally {
    await context.close();
    await stack.stop();
    await rm(root, { recursive: true, force: true });
  }
});

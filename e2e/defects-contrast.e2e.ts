// Issue 21, user area item 10: WCAG AA contrast, checked by axe-core (color-contrast, WCAG 2 AA) on
// the screens a user walks, including the own bubble with a link and a row's revealed 'Archivovať'.
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { PHONE, signIn } from './defects-helpers.ts';

// axe is injected as an inline script, which the app's CSP (rightly) refuses: bypass it for the probe only.
test.use({ viewport: PHONE, hasTouch: true, bypassCSP: true });

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function contrastViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    // Judged at rest: a toast fading in (the push prompt after the first send) is, mid-transition, a
    // blend of its colours and the page's (CI once measured 'Zapnúť' at 4.35:1 that way). Finite
    // animations and transitions are awaited; endless ones (typing dots) are left running.
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let round = 0; round < 20; round++) {
      await frame(); // a toast mounted just now starts its transition a frame later
      const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
      if (running.length === 0) break;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            o: unknown,
          ) => Promise<{
            violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[];
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] } });
    return r.violations.flatMap((v) =>
      v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    );
  });
}

test('own bubble links and the revealed archive action meet AA contrast', async ({ page }) => {
  await signIn(page, 'demo@poradna.test');
  const conversationId = '00000000-0000-4000-b000-000000000003';
  await page.goto(`/app/chats/${conversationId}`);
  const box = page.getByRole('textbox', { name: 'Správa' });
  // A text of its own per run, so a retry never meets the first attempt's bubble.
  const label = `môj web ${Date.now().toString(36)}`;
  await box.fill(`Pozrite [${label}](https://zrnko.sk) prosím`);
  await box.press('Enter');
  await expect(
    page.locator('[data-testid="message"][data-own="true"] .markdown a', { hasText: label }),
  ).toBeVisible();
  // A sending copy is at 70 % opacity by the spec; contrast is judged on the sent bubble.
  await expect(page.locator('[data-testid="message"][data-own="true"]', { hasText: label })).toHaveAttribute(
    'data-state',
    'sent',
    { timeout: 15_000 },
  );
  await page.screenshot({ path: 'e2e/artifacts/screenshots/own-link-phone.png' });
  expect(await contrastViolations(page)).toEqual([]);

  await page.goto('/app/chats');
  const row = page.getByTestId('conversation-row').first();
  await expect(row).toBeVisible();
  const b = (await row.boundingBox())!;
  await page.mouse.move(b.x + b.width - 40, b.y + b.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(b.x + b.width - 40 - (70 * i) / 6, b.y + b.height / 2);
  await page.mouse.up();
  await expect(page.getByRole('button', { name: 'Archivovať' }).first()).toBeVisible();
  expect(await contrastViolations(page)).toEqual([]);
  await page.screenshot({ path: 'e2e/artifacts/screenshots/archive-revealed-phone.png' });

  for (const path of ['/app/specialists', '/app/settings', '/app/archived']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await contrastViolations(page), path).toEqual([]);
  }
});

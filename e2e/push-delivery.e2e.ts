// Issue 20, delivery and read states (R11.9) across two devices of one user: an own message shows
// ✓ 'Odoslané' once the server has it on both, and ✓✓ 'Prečítané' on both once the server sets its
// read_at (here with the service key, as the specialist's side does) — read state arrives through the
// change feed like any other column. Axe checks the bubbles' contrast (AA). The specialist is a human
// one (Zuzana): an AI specialist's reply job would mark the message read at once (R10.8), before ✓
// could be seen.
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { freshChat, rest, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const own = (page: Page, text: string) => page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });

test('✓ sent and ✓✓ read converge on two devices', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const { user, conversationId } = await freshChat(origin, 'precitane');
  const chat = `/app/chats/${conversationId}`;

  // axe is injected inline, which the app's CSP refuses: bypass it for this device's probe only.
  const a = await browser.newContext({ baseURL: origin, viewport: { width: 390, height: 844 }, bypassCSP: true });
  const b = await browser.newContext({ baseURL: origin, viewport: { width: 390, height: 844 } });
  try {
    const pa = await a.newPage();
    const pb = await b.newPage();
    for (const p of [pa, pb]) {
      await storeSession(p, user.email);
      await p.goto(chat);
      await expect(p.getByTestId('message').first()).toBeVisible({ timeout: 20_000 });
    }
    const text = `Stav doručenia ${Date.now()}`;
    const composer = pa.getByRole('textbox', { name: 'Správa' });
    await composer.fill(text);
    await composer.press('Enter');

    // R11.1: the first sent message offers notifications once, in a non-blocking prompt (permission is
    // 'default' here); the other device, which only loaded, was never asked.
    await expect(pa.getByText('Chceš vedieť, keď ti špecialista odpíše?')).toBeVisible();
    await expect(pb.getByText('Chceš vedieť, keď ti špecialista odpíše?')).toHaveCount(0);
    for (const p of [pa, pb]) {
      await expect(own(p, text).getByRole('img', { name: 'Odoslané' })).toBeVisible({ timeout: 20_000 });
      await expect(own(p, text).getByRole('img', { name: 'Prečítané' })).toHaveCount(0);
    }
    await shootBoth(pa, 'push-bubble-sent');

    await rest(origin, `messages?text=eq.${encodeURIComponent(text)}`, { method: 'PATCH', prefer: 'return=minimal', body: { read_at: new Date().toISOString() } });
    for (const p of [pa, pb]) {
      await expect(own(p, text).getByRole('img', { name: 'Prečítané' })).toBeVisible({ timeout: 20_000 });
      await expect(own(p, text).getByRole('img', { name: 'Odoslané' })).toHaveCount(0);
    }
    await shootBoth(pa, 'push-bubble-read');

    await pa.addScriptTag({ path: AXE });
    const violations = await pa.evaluate(async () => {
      type Axe = { run: (ctx: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      const r = await (window as unknown as { axe: Axe }).axe.run({ include: [['[data-testid="message"]']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
      return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations).toEqual([]);
  } finally {
    await a.close();
    await b.close();
  }
});

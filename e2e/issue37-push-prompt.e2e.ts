// Issue 37, user area item 3: the notifications prompt (R11.8) is offered only after a send that
// reached the server, while online, and never over the latest messages and the composer — not for a
// send the server refuses, nor for one queued offline (where 'Zapnúť' cannot work).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations } from './axe-helpers.ts';
import { PHONE, freshChat, rest } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE, hasTouch: true, bypassCSP: true });

const PROMPT = 'Chceš vedieť, keď ti špecialista odpíše?';
const composer = (page: Page) => page.getByRole('textbox', { name: 'Správa' });
const own = (page: Page, text: string) => page.locator('[data-testid="message"][data-own="true"]', { hasText: text });

// Whether a and b share no pixel; false while either has no box yet. Polled (`expect.poll`): right after
// the 1440 px resize the two-pane layout mounts the chat anew, and for a few frames under load the
// message, the composer or the prompt has no box (the CI run of 4147d73 read null there once).
async function apart(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.y + x.height <= y.y || y.y + y.height <= x.y || x.x + x.width <= y.x || y.x + y.width <= x.x;
}

test('the push prompt waits for a send the server accepted, online, and stays off the latest messages', async ({ page, context, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL!, 'vyzva');
  // A chat longer than the screen: the prompt's row must not push the latest message out of view.
  const start = Date.now() - 3_600_000;
  await rest(baseURL!, 'messages', {
    method: 'POST',
    prefer: 'return=minimal',
    body: Array.from({ length: 30 }, (_, i) => ({ conversation_id: conversationId, direction: 'specialist', source: 'chatwoot', text: `Staršia správa ${i + 1}`, created_at: new Date(start + i * 1000).toISOString() })),
  });
  await storeSession(page, user.email);
  await page.goto(`/app/chats/${conversationId}`);
  await expect(page.getByText('Dobrý deň, ako vám pomôžem?', { exact: true })).toBeVisible();

  // Refused by the server ('Message is too long'): no prompt.
  await composer(page).fill('x'.repeat(10_001));
  await composer(page).press('Enter');
  await expect(page.locator('[data-testid="message"][data-state="failed"]')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(PROMPT)).toHaveCount(0);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);

  // Queued offline: no prompt while it waits.
  await context.setOffline(true);
  await composer(page).fill('Napísané bez siete');
  await composer(page).press('Enter');
  await expect(own(page, 'Napísané bez siete').getByTestId('pending-label')).toHaveText('Čaká na pripojenie');
  await expect(page.getByText(PROMPT)).toHaveCount(0);

  // Online again, the message reaches the server: now the prompt, clear of the latest message and the composer.
  await context.setOffline(false);
  await expect(own(page, 'Napísané bez siete')).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  const prompt = page.getByTestId('push-prompt');
  await expect(prompt).toBeVisible();
  for (const size of [PHONE, { width: 1440, height: 900 }]) {
    await page.setViewportSize(size);
    await expect(prompt).toContainText(PROMPT);
    // Nothing of the chat lies under it: the latest message (and its status), the composer, the header.
    await expect.poll(() => apart(prompt, own(page, 'Napísané bez siete'))).toBe(true);
    await expect.poll(() => apart(prompt, composer(page))).toBe(true);
    await expect.poll(() => apart(prompt, page.getByTestId('chat-header'))).toBe(true);
    await expect(own(page, 'Napísané bez siete').getByRole('img', { name: 'Odoslané' })).toBeInViewport();
    expect(await axeViolations(page), `axe at ${size.width}px`).toEqual([]);
    await page.screenshot({ path: `e2e/artifacts/screenshots/issue37/push-prompt-${size.width}.png` });
  }
});

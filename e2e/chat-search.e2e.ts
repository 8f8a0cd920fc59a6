// Issue 40: search inside the open chat (the header's search) with previous / next hit, over the
// device's index (sync/search). A chat of 120 messages with three that mention a campaign, far apart;
// the newest hit shows first, 'Predchádzajúci výskyt' goes to the older ones, each scrolled into view
// and marked. A user of its own, so the counts are this chat's alone.
import { expect, test } from '@playwright/test';
import { axeViolations } from './axe-helpers.ts';
import { freshChat, rest, signIn } from './defects-helpers.ts';

// axe is injected as an inline script, which the app's CSP (rightly) refuses: bypass it for the probe only.
test.use({ bypassCSP: true });

const SHOTS = 'e2e/artifacts/screenshots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const MENTIONS: Record<number, string> = { 5: 'Prvý návrh kampane je v prílohe.', 60: 'Kampaň spúšťame v pondelok.', 110: 'Výsledky kampane pošlem v piatok.' };

test('the chat search finds this chat\'s hits, newest first, and moves between them', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const chat = await freshChat(baseURL!, 'hladanievchate');
  await rest(baseURL!, `messages?conversation_id=eq.${chat.conversationId}`, { method: 'DELETE' });
  const start = Date.now() - 120 * 60_000;
  const rows = Array.from({ length: 120 }, (_, i) => ({
    conversation_id: chat.conversationId,
    direction: 'specialist',
    source: 'chatwoot',
    text: MENTIONS[i] ?? `Správa číslo ${i + 1}`,
    created_at: new Date(start + i * 60_000).toISOString(),
  }));
  await rest(baseURL!, 'messages', { method: 'POST', prefer: 'return=minimal', body: rows });

  await page.setViewportSize(PHONE);
  await signIn(page, chat.user.email, { lands: /\/app\/chats/ });
  await page.getByTestId('conversation-row').filter({ hasText: 'Správa číslo 120' }).click();
  await expect(page.getByText('Správa číslo 120', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Hľadať v konverzácii' }).click();
  const box = page.getByRole('searchbox', { name: 'Hľadať v tejto konverzácii' });
  await expect(box).toBeFocused();
  await box.fill('kampan');
  const bar = page.getByTestId('chat-search');
  await expect(bar.getByRole('status')).toHaveText('1 z 3', { timeout: 30_000 });
  const found = page.locator('[data-found="true"]');
  await expect(found).toContainText('Výsledky kampane');
  await expect(found).toBeInViewport();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/chat-search-phone.png` });

  await bar.getByRole('button', { name: 'Predchádzajúci výskyt' }).click();
  await expect(bar.getByRole('status')).toHaveText('2 z 3');
  await expect(found).toContainText('Kampaň spúšťame');
  await expect(found).toBeInViewport();
  await box.press('Enter'); // Enter: the next older hit
  await expect(bar.getByRole('status')).toHaveText('3 z 3');
  await expect(found).toContainText('Prvý návrh kampane');
  await expect(found).toBeInViewport();
  await expect(page.getByText('Správa číslo 120', { exact: true })).not.toBeInViewport();
  await bar.getByRole('button', { name: 'Ďalší výskyt' }).click();
  await expect(bar.getByRole('status')).toHaveText('2 z 3');
  await expect(found).toContainText('Kampaň spúšťame');

  // A desktop: the chat beside the list. Crossing 1024 px on the same address is the same page, so
  // the search stays open where it was (AppLayout's page key).
  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId('two-pane')).toBeVisible();
  await expect(box).toHaveValue('kampan');
  await expect(bar.getByRole('status')).toHaveText('2 z 3');
  await expect(found).toContainText('Kampaň spúšťame');
  await expect(found).toBeInViewport();
  await bar.getByRole('button', { name: 'Ďalší výskyt' }).click();
  await expect(bar.getByRole('status')).toHaveText('1 z 3');
  await expect(found).toContainText('Výsledky kampane');
  await expect(found).toBeInViewport();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/chat-search-desktop.png` });
  await bar.getByRole('button', { name: 'Zavrieť hľadanie' }).click();
  await expect(bar).toHaveCount(0);
});

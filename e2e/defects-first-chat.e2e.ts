// Issue 21, user area item 1: a new user's auto-created first conversation shows its specialist
// (the assistant), name and avatar initials, in the list and in the chat header — never the
// 'Neznámy špecialista' fallback.
import { expect, test } from '@playwright/test';
import { PHONE, freshUser, shootBoth, signIn } from './defects-helpers.ts';

test.use({ viewport: PHONE, hasTouch: true });

test('the first conversation shows the assistant, in the list and the chat header', async ({ page, baseURL }) => {
  const user = await freshUser(baseURL!, 'prvy');
  await signIn(page, user.email);
  const row = page.getByTestId('conversation-row');
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText('Asistent');
  await expect(row).not.toContainText('Neznámy špecialista');
  await shootBoth(page, 'first-chat-list');
  // Survives a reload (the local store keeps the specialist, not only the first render).
  await page.reload();
  await expect(row).toContainText('Asistent');
  await row.click();
  await expect(page.getByTestId('chat-header')).toContainText('Asistent');
  await expect(page.getByTestId('chat-header')).not.toContainText('Neznámy');
  await shootBoth(page, 'first-chat-open');
});

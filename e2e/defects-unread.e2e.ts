// Issue 21, user area item 14: a chat opened with many unread messages shows a 'Nové správy' divider
// above the first unread one, opens there (not at the bottom), and focus moves into the chat.
import { expect, test } from '@playwright/test';
import { PHONE, freshUser, rest, shootBoth, signIn } from './defects-helpers.ts';

test.use({ viewport: PHONE, hasTouch: true });

test('opens at the unread divider with focus in the chat', async ({ page, baseURL }) => {
  const user = await freshUser(baseURL!, 'neprecitane');
  const link = (await rest(baseURL!, `account_users?select=account_id&user_id=eq.${user.id}`)) as { account_id: string }[];
  const accountId = link[0]!.account_id;
  const conv = (await rest(baseURL!, 'conversations', {
    method: 'POST',
    body: { account_id: accountId, specialist_id: '00000000-0000-4000-8000-000000000011' },
  })) as { id: string }[];
  const id = conv[0]!.id;
  const start = Date.now() - 3_600_000;
  await rest(baseURL!, 'messages', {
    method: 'POST',
    prefer: 'return=minimal',
    body: Array.from({ length: 41 }, (_, i) => ({
      conversation_id: id,
      direction: 'specialist',
      source: 'ai',
      text: i === 0 ? 'Stará prečítaná správa' : `Nová správa ${i}`,
      created_at: new Date(start + i * 1000).toISOString(),
    })),
  });
  // The first message is read: the cursor stands on it.
  const first = (await rest(baseURL!, `messages?select=id&conversation_id=eq.${id}&text=eq.Stará prečítaná správa`)) as { id: string }[];
  await rest(baseURL!, 'read_cursors', { method: 'POST', prefer: 'return=minimal', body: { user_id: user.id, account_id: accountId, conversation_id: id, last_read_message_id: first[0]!.id } });

  await signIn(page, user.email);
  const row = page.getByTestId('conversation-row').filter({ hasText: 'Martin Kováč' });
  await expect(row).toContainText('40', { timeout: 20_000 });
  await row.click();
  const divider = page.getByTestId('unread-divider');
  await expect(divider).toBeVisible();
  await expect(divider).toHaveText('Nové správy');
  await expect(page.getByText('Nová správa 1', { exact: true })).toBeInViewport();
  await expect(page.getByText('Nová správa 40', { exact: true })).not.toBeInViewport();
  // Issue 37: opening a chat puts focus in the composer (where the member means to type).
  await expect(page.getByRole('textbox', { name: 'Správa' })).toBeFocused();
  await shootBoth(page, 'unread-divider');
});

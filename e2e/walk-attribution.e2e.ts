// Issue 37, admin item 1 and user item 12 (second half), on a fresh account of their own:
//   * support writing while impersonating is told so before sending, and the message shows
//     'Napísala podpora Poradne' on the customer's own device and on the admin's (server-set mark);
//   * a message written offline and delivered later shows the time it was written, and a message
//     delivered long after it was written says both times.
import { expect, type Page } from '@playwright/test';
import { sql, testAtOrigin as test } from './admin-helpers.ts';
import { freshChat, shootBoth } from './defects-helpers.ts';
import { ADMIN } from './admin-helpers.ts';
import { storeSession } from './stored-session.ts';

const composer = (page: Page) => page.getByRole('textbox', { name: 'Správa' });

test('support writes while impersonating: warned before sending, attributed on the customer\'s device and the admin\'s', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const { user, accountId, conversationId } = await freshChat(baseURL ?? '', 'walk-support');
  // A retry starts from no impersonation of the seeded admin.
  await sql("delete from public.impersonations where admin_user_id = (select id from auth.users where email = 'admin@poradna.test')");

  await storeSession(page, ADMIN.email, { password: ADMIN.password });
  await page.goto('/admin/accounts');
  await page.getByRole('searchbox').fill(user.email);
  await expect(page.getByTestId('account-row')).toHaveCount(1);
  await page.getByTestId('account-row').getByRole('button', { name: 'Impersonovať' }).click();
  await expect(page).toHaveURL(/\/app\/chats$/);
  await page.goto(`/app/chats/${conversationId}`);
  await expect(page.getByTestId('support-compose-note')).toHaveText(/Píšete ako podpora/);
  const text = `Dobrý deň, tu podpora ${Date.now()}`;
  await composer(page).fill(text);
  await composer(page).press('Enter');
  const adminBubble = page.locator('[data-testid="message"]').filter({ hasText: text });
  await expect(adminBubble).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await expect(adminBubble.getByTestId('support-byline')).toHaveText('Napísala podpora Poradne');
  await shootBoth(page, 'walk-support-admin');

  const stored = await sql<{ payload: { sent_by_support?: boolean }; account_id: string }>('select payload, account_id from public.messages where text = $1', [text]);
  expect(stored).toEqual([expect.objectContaining({ account_id: accountId, payload: expect.objectContaining({ sent_by_support: true }) })]);

  const customer = await browser.newContext();
  try {
    const cpage = await customer.newPage();
    await storeSession(cpage, user.email);
    await cpage.goto(`/app/chats/${conversationId}`);
    const seen = cpage.locator('[data-testid="message"]').filter({ hasText: text });
    await expect(seen.getByTestId('support-byline')).toHaveText('Napísala podpora Poradne', { timeout: 20_000 });
    // The customer is not impersonating: no note over their composer.
    await expect(cpage.getByTestId('support-compose-note')).toHaveCount(0);
    await shootBoth(cpage, 'walk-support-customer');
  } finally {
    await customer.close();
    await page.goto('/app/chats');
    await page.getByRole('button', { name: 'Stop impersonating' }).click();
  }
});

test('a message written offline shows when it was written; long after, both times are said', async ({ page, context, baseURL }) => {
  const { user, conversationId } = await freshChat(baseURL ?? '', 'walk-written');
  await storeSession(page, user.email);
  await page.goto(`/app/chats/${conversationId}`);
  await expect(page.getByTestId('message').filter({ hasText: 'Dobrý deň, ako vám pomôžem?' })).toBeVisible({ timeout: 20_000 });

  await context.setOffline(true);
  const text = `Napísané offline ${Date.now()}`;
  await composer(page).fill(text);
  await composer(page).press('Enter');
  const bubble = page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });
  await expect(bubble).toHaveAttribute('data-state', 'sending');
  // The scenario: the message waits on the device before the network returns.
  await page.waitForTimeout(2000);
  await context.setOffline(false);
  await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });

  const [row] = await sql<{ created_at: Date; written: string }>("select created_at, payload->>'written_at' as written from public.messages where text = $1", [text]);
  expect(row!.created_at.getTime() - Date.parse(row!.written)).toBeGreaterThanOrEqual(1500);
  await expect(bubble.getByTestId('message-time')).toHaveAttribute('datetime', row!.written);

  // Delivered two hours after it was written (as server code stores it; the conversation is older).
  await sql("update public.conversations set created_at = now() - interval '1 day' where id = $1", [conversationId]);
  const late = `Doručené neskôr ${Date.now()}`;
  await sql(
    `insert into public.messages (conversation_id, direction, text, payload, sender_user_id)
     values ($1, 'user', $2, jsonb_build_object('written_at', to_char((now() - interval '2 hours') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')), $3)`,
    [conversationId, late, user.id],
  );
  const lateTime = page.locator('[data-testid="message"]').filter({ hasText: late }).getByTestId('message-time');
  await expect(lateTime).toHaveAttribute('title', /^Napísané \S+( \S+ \S+)?, doručené \d{2}:\d{2}$/, { timeout: 20_000 });
  const shown = await lateTime.textContent();
  const title = await lateTime.getAttribute('title');
  expect(title).toContain(`Napísané ${shown},`);
  await shootBoth(page, 'walk-written-time');
});

// Impersonation end to end: the super admin impersonates druhy's account from /admin/accounts, sees
// exactly that account's conversations (checked against the server), sends a message as it (the
// server holds it once, in that account, with an audit_log row), then stops and no longer sees them.
import { expect, type Page } from '@playwright/test';
import { ADMIN, sql, testAtOrigin as test } from './admin-helpers.ts';
import { storeSession } from './stored-session.ts';

const TARGET_EMAIL = 'druhy@poradna.test';

async function ownedAccount(email: string): Promise<{ id: string; name: string }> {
  const rows = await sql<{ id: string; name: string }>(
    `select a.id, a.name from public.accounts a join public.account_users au on au.account_id = a.id and au.role = 'owner'
       join auth.users u on u.id = au.user_id where u.email = $1`,
    [email],
  );
  return rows[0]!;
}

/** The account's unarchived conversation ids, read through REST with the service key. */
async function serverConversations(baseURL: string, accountId: string): Promise<string[]> {
  const key = process.env.E2E_SERVICE_KEY ?? '';
  const res = await fetch(`${baseURL}/rest/v1/conversations?select=id&account_id=eq.${accountId}&archived_at=is.null&order=id`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  return ((await res.json()) as { id: string }[]).map((r) => r.id);
}

const rows = (page: Page) => page.getByTestId('conversation-row');

/** The conversation ids the list shows (from each row's link). */
async function shownConversations(page: Page): Promise<string[]> {
  const hrefs = await rows(page).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => decodeURIComponent(h.replace('/app/chats/', ''))).sort();
}

test('impersonate druhy: see its chats, send as it (once, audited), stop and see the own list again', async ({ page, baseURL }) => {
  const origin = baseURL ?? '';
  const target = await ownedAccount(TARGET_EMAIL);
  const own = await ownedAccount(ADMIN.email);
  const targetConvs = await serverConversations(origin, target.id);
  expect(targetConvs.length).toBeGreaterThan(0);

  await storeSession(page, ADMIN.email, { password: ADMIN.password });

  await page.goto('/admin/accounts');
  await expect(page.getByTestId('account-row').first()).toBeVisible();
  await page.getByRole('searchbox').fill('druhy@');
  await expect(page.getByTestId('account-row')).toHaveCount(1);
  await page.getByTestId('account-row').getByRole('button', { name: 'Impersonovať' }).click();
  await expect(page).toHaveURL(/\/app\/chats$/);
  await expect(page.getByText(`Impersonating: ${target.name}`)).toBeVisible();

  // Exactly the impersonated account's conversations, none of the admin's own.
  await expect.poll(() => shownConversations(page), { timeout: 20_000 }).toEqual([...targetConvs].sort());

  const conversationId = targetConvs[0]!;
  await page.locator(`[data-testid="conversation-row"][href="/app/chats/${conversationId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/app/chats/${conversationId}$`));
  const text = `Správa za druhý účet ${Date.now()}`;
  const composer = page.getByRole('textbox', { name: 'Správa' });
  await composer.fill(text);
  await composer.press('Enter');
  const bubble = page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });
  await expect(bubble).toHaveCount(1);
  await expect(bubble).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });

  // The server: once, in that account's conversation, and the impersonated write is audited.
  const stored = await sql<{ id: string; account_id: string; conversation_id: string }>(
    `select id, account_id, conversation_id from public.messages where text = $1 and direction = 'user'`,
    [text],
  );
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ account_id: target.id, conversation_id: conversationId });
  const audit = await sql<{ account_id: string; action: string; email: string }>(
    `select l.account_id, l.action, u.email from public.audit_log l join auth.users u on u.id = l.actor_user_id
      where l.table_name = 'messages' and l.row_id = $1`,
    [stored[0]!.id],
  );
  expect(audit).toEqual([{ account_id: target.id, action: 'impersonated.insert', email: ADMIN.email }]);

  // Stop: the banner goes, the list is the admin's own again (never druhy's).
  await page.goto('/app/chats');
  await page.getByRole('button', { name: 'Stop impersonating' }).click();
  await expect(page.getByText(`Impersonating: ${target.name}`)).toHaveCount(0);
  // The own list may gain its automatic first conversation meanwhile: compare with the server each time.
  const matchesOwn = async () => {
    const [shown, server] = [await shownConversations(page), (await serverConversations(origin, own.id)).sort()];
    return shown.join() === server.join() && !shown.some((id) => targetConvs.includes(id));
  };
  await expect.poll(matchesOwn, { timeout: 20_000 }).toBe(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Konverzácie' })).toBeVisible();
  await expect(page.getByText(`Impersonating: ${target.name}`)).toHaveCount(0);
  await expect.poll(matchesOwn, { timeout: 20_000 }).toBe(true);
});

// Issue 21 admin items 3, 6, 9, 10, 11, 12 in a real browser at 390×844 and 1280×800, against a stack
// wired to the Chatwoot double (no specialist has an inbox: a fresh install) and, for item 11, the
// default stack without Chatwoot. Screenshots go to e2e/artifacts/screenshots (not committed).
import { expect, test, type Page } from '@playwright/test';
import type pg from 'pg';
import type { ChatwootDouble } from '../tests/doubles/chatwoot/server.ts';
import { signInAdmin, sql as query, startChatwootStack, toast, type ChatwootStack } from './admin-helpers.ts';
import { DESKTOP, PHONE, SHOTS } from './defects-helpers.ts';
import { ADMIN } from './admin-helpers.ts';
import { storeSession } from './stored-session.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(150_000);

const WEBHOOK_SECRET = 'e2e-admin-int-secret-0123456789abcdefghij';

let cw: ChatwootStack | undefined;
let double: ChatwootDouble;
let origin: string;

/** SQL on this file's stack (the one wired to the double). */
const sql = <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => query<T>(text, params, cw!.stack.databaseUrl);

/** No sideways scrolling of the page at the current width. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cw = await startChatwootStack(WEBHOOK_SECRET);
  ({ double, origin } = cw);
  await sql('update public.specialists set chatwoot_inbox_id = null');
});

test.afterAll(async () => {
  await cw?.destroy();
});

for (const [label, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test(`Chatwoot page at ${label}: settings validation, specialists' inboxes, sections laid out (${viewport.width}px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await storeSession(page, ADMIN.email, { password: ADMIN.password, origin });
    await page.goto(`${origin}/admin/chatwoot`);
    const settings = page.getByTestId('cw-settings');

    // Item 9: 'not a url' is refused in the page with its own message, nothing is saved.
    await settings.getByLabel(/API Base URL/).fill('not a url');
    await settings.getByLabel(/Account ID/).fill('1');
    await settings.getByRole('button', { name: 'Uložiť' }).click();
    await expect(settings.getByTestId('cw-url-error')).toHaveText('API URL nie je platná adresa. Zadajte celú adresu, napr. https://chatwoot.example.com');
    await expect(toast(page, 'Konfigurácia uložená')).toHaveCount(0);
    await settings.getByLabel(/API Base URL/).fill(double.url);
    await settings.getByLabel(/Account ID/).fill('abc');
    await settings.getByRole('button', { name: 'Uložiť' }).click();
    await expect(settings.getByTestId('cw-account-error')).toHaveText('Account ID musí byť kladné celé číslo (číslo účtu v Chatwoote).');
    // Nothing saved: no row yet (phone run), or still the double's (desktop run).
    for (const r of await sql<{ api_base_url: string; account_id: number }>('select api_base_url, account_id::int from public.chatwoot_config'))
      expect(r).toEqual({ api_base_url: double.url, account_id: double.accountId });
    await settings.getByLabel(/Account ID/).fill(String(double.accountId));
    await settings.getByRole('button', { name: 'Uložiť' }).click();
    await expect(toast(page, 'Konfigurácia uložená')).toBeVisible();

    // Item 9: the two conversation-id fields say which id they take.
    await expect(page.getByTestId('cw-actions').getByLabel('ID konverzácie v Chatwoote (číslo, napr. 42)')).toBeVisible();
    await expect(page.getByTestId('cw-rich').getByLabel('ID konverzácie v Poradni (UUID)')).toBeVisible();

    // Item 6: the specialists section lists the inboxes; choosing one saves it.
    const section = page.getByTestId('cw-inboxes');
    const row = section.getByTestId('cw-inbox-row').first();
    const name = (await row.getAttribute('data-specialist'))!;
    const select = row.getByRole('combobox');
    await expect(select).toBeEnabled();
    const inbox = double.inboxes[viewport === PHONE ? 0 : 1]!;
    await select.selectOption(String(inbox.id));
    await expect(toast(page, `Inbox špecialistu ${name} uložený`)).toBeVisible();
    expect(await sql<{ chatwoot_inbox_id: number }>('select chatwoot_inbox_id::int from public.specialists where name = $1', [name])).toEqual([{ chatwoot_inbox_id: inbox.id }]);
    // The send form sees it at once.
    await expect(page.getByTestId('cw-send').getByRole('combobox')).toContainText(`${name} (inbox ${inbox.id})`);

    // Item 12: side by side on a wide screen, stacked and without sideways scrolling on a phone.
    const boxA = (await page.getByTestId('cw-settings').boundingBox())!;
    const boxB = (await page.getByTestId('cw-control-panel').boundingBox())!;
    const webhookBox = (await page.getByText('Adresa webhooku', { exact: true }).boundingBox())!;
    if (viewport === DESKTOP) expect(Math.abs(webhookBox.y - boxA.y)).toBeLessThan(40); // webhook card beside the settings
    else expect(boxB.x).toBeCloseTo(boxA.x, 0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/admin-int-chatwoot-${label}.png`, fullPage: true, animations: 'disabled' });

    // Item 10: unassign and status toasts in Slovak.
    const actions = page.getByTestId('cw-actions');
    await page.getByTestId('cw-send').getByRole('combobox').selectOption({ label: `${name} (inbox ${inbox.id})` });
    await page.getByTestId('cw-send').getByLabel('Správa').fill(`Ahoj ${label}`);
    await page.getByTestId('cw-send').getByRole('button', { name: 'Odoslať' }).click();
    await expect(toast(page, 'Správa odoslaná')).toBeVisible();
    const conv = (await sql<{ id: number }>('select chatwoot_conversation_id::int as id from public.conversations where chatwoot_conversation_id is not null order by created_at desc limit 1'))[0]!;
    await actions.getByLabel(/ID konverzácie v Chatwoote/).fill(String(conv.id));
    await actions.getByRole('button', { name: 'Priradiť' }).click();
    await expect(toast(page, 'Priradenie konverzácie zrušené')).toBeVisible();
    await actions.getByRole('switch', { name: 'Vyriešená' }).click();
    await actions.getByRole('button', { name: 'Zmeniť stav' }).click();
    await expect(toast(page, 'Stav konverzácie: vyriešená')).toBeVisible();
  });
}

test('edge-function checks change no user conversation and say which are not configured (items 3, 11)', async ({ page, baseURL }) => {
  // With Chatwoot: all nine pass, and the user's conversation above stays resolved (the check of
  // toggle-status reopens only the diagnostics conversation).
  await page.setViewportSize(DESKTOP);
  await signInAdmin(page, origin);
  const userConv = (await sql<{ id: number }>('select chatwoot_conversation_id::int as id from public.conversations where chatwoot_conversation_id is not null order by created_at desc limit 1'))[0]!;
  const before = double.actions.conversation(double.accountId, userConv.id).status;
  await page.goto(`${origin}/admin/edge-functions`);
  await page.getByRole('button', { name: 'Spustiť všetky testy' }).click();
  await expect(page.getByTestId('edge-result')).toHaveCount(9, { timeout: 30_000 });
  await expect(page.getByTestId('edge-passed')).toHaveText('9');
  expect(double.actions.conversation(double.accountId, userConv.id).status).toBe(before);
  expect(before).toBe('resolved');
  await page.screenshot({ path: `${SHOTS}/admin-int-edge-chatwoot-desktop.png`, fullPage: true, animations: 'disabled' });

  // The default install (the suite's stack, no Chatwoot): not configured, not failed.
  await signInAdmin(page, baseURL ?? '');
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto('/admin/edge-functions');
    await page.getByRole('button', { name: 'Spustiť všetky testy' }).click();
    await expect(page.getByTestId('edge-result')).toHaveCount(9, { timeout: 30_000 });
    await expect(page.getByTestId('edge-passed')).toHaveText('2');
    await expect(page.getByTestId('edge-failed')).toHaveText('0');
    await expect(page.getByTestId('edge-not-configured')).toHaveText('7');
    await expect(page.locator('[data-testid="edge-result"][data-outcome="not-configured"]')).toHaveCount(7);
    await expect(page.locator('[data-outcome="not-configured"]').first().getByText('Nenakonfigurované')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/admin-int-edge-default-${label}.png`, fullPage: true, animations: 'disabled' });

    await page.goto('/admin/chatwoot');
    const panel = page.getByTestId('cw-control-panel');
    await panel.getByRole('button', { name: 'Spustiť všetky kontroly' }).click();
    await expect(panel.getByTestId('check-api')).toHaveAttribute('data-status', 'notConfigured');
    await expect(panel.getByTestId('check-webhook')).toHaveAttribute('data-status', 'notConfigured');
    await expect(panel.getByTestId('check-api')).toContainText('Nenakonfigurované');
    await expect(page.getByTestId('cw-inboxes-error')).toHaveText('Chatwoot nie je nakonfigurovaný: najprv uložte API URL a Account ID.');
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/admin-int-chatwoot-default-${label}.png`, fullPage: true, animations: 'disabled' });
  }
});

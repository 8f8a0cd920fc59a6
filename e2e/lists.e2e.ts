// Conversation lists against the local stack: search and filters kept in the address, archive and
// restore by a mouse drag of more than 50 px with the archived count following, and screenshots of
// the lists and the specialists screen at 360 × 640.
import { expect, test, type Locator, type Page } from '@playwright/test';

const SHOTS = 'e2e/artifacts/screenshots';

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Heslo', { exact: true }).fill('poradna123');
  await page.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/chats/);
}

const rows = (page: Page) => page.getByTestId('conversation-row');
const row = (page: Page, name: string) => rows(page).filter({ hasText: name });

/** Drags a row left by `dx` px with the mouse (SwipeableRow: more than 50 px reveals the action). */
async function dragLeft(page: Page, target: Locator, dx: number): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('row not visible');
  const y = box.y + box.height / 2;
  const x = box.x + box.width - 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 6; step++) await page.mouse.move(x - (dx * step) / 6, y);
  await page.mouse.up();
}

test('search and filters live in q and filter; the empty text for no match', async ({ page }) => {
  await signIn(page, 'demo@poradna.test');
  await expect(row(page, 'Lucia Horváthová')).toBeVisible();
  await expect(page.getByTestId('plan-badge')).toHaveText('PRO');
  await page.screenshot({ path: `${SHOTS}/chats.png`, animations: 'disabled' });

  await page.getByRole('searchbox', { name: 'Hľadať konverzáciu' }).fill('lucia');
  await expect(page).toHaveURL(/[?&]q=lucia/);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'Lucia Horváthová')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Hľadať konverzáciu' }).fill('');
  await page.getByRole('button', { name: 'Ukončené' }).click();
  await expect(page).toHaveURL(/[?&]filter=completed/);
  await expect(row(page, 'Zuzana Bieliková')).toBeVisible();
  await expect(row(page, 'Lucia Horváthová')).toHaveCount(0);

  await page.getByRole('button', { name: 'Neprečítané' }).click();
  await expect(page).toHaveURL(/[?&]filter=unread/);
  await expect(row(page, 'Zuzana Bieliková')).toHaveCount(0);

  // Reload keeps both in the address.
  await page.goto('/app/chats?q=xyz-nic&filter=active');
  await expect(page.getByRole('button', { name: 'Aktívne' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('searchbox', { name: 'Hľadať konverzáciu' })).toHaveValue('xyz-nic');
  await expect(page.getByText('No conversations match your search')).toBeVisible();
});

test('archive and restore by dragging a row; the archived count follows', async ({ page }) => {
  await signIn(page, 'demo@poradna.test');
  const count = page.getByTestId('archived-count');
  await expect(row(page, 'Michal Tóth')).toBeVisible();
  await expect(count).toHaveText(/^\d+$/);
  const before = Number(await count.textContent());

  // A short drag (40 px) does not reveal the action.
  await dragLeft(page, row(page, 'Michal Tóth'), 40);
  await expect(page.getByRole('listitem').filter({ hasText: 'Michal Tóth' }).locator('[data-revealed="true"]')).toHaveCount(0);
  await dragLeft(page, row(page, 'Michal Tóth'), 70);
  const item = page.getByRole('listitem').filter({ hasText: 'Michal Tóth' });
  await expect(item.locator('[data-revealed="true"]')).toHaveCount(1);
  await item.getByRole('button', { name: 'Archivovať' }).click();
  await expect(row(page, 'Michal Tóth')).toHaveCount(0);
  await expect(count).toHaveText(String(before + 1));

  await page.getByTestId('archived-row').click();
  await expect(page).toHaveURL(/\/app\/archived$/);
  await expect(page.getByRole('heading', { name: 'Archivované' })).toBeVisible();
  await expect(row(page, 'Michal Tóth')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/archived.png`, animations: 'disabled' });
  await dragLeft(page, row(page, 'Michal Tóth'), 70);
  await page.getByRole('listitem').filter({ hasText: 'Michal Tóth' }).getByRole('button', { name: 'Obnoviť' }).click();
  await expect(row(page, 'Michal Tóth')).toHaveCount(0);

  // The server holds the restore too: a fresh load shows it back in the active list.
  await page.goto('/app/chats');
  await expect(row(page, 'Michal Tóth')).toBeVisible();
  await expect(count).toHaveText(String(before));
});

test('archived list search without a match, and the specialists screen', async ({ page }) => {
  await signIn(page, 'demo@poradna.test');
  await page.goto('/app/archived?q=zzz-nic');
  await expect(page.getByText('No archived conversations match your search')).toBeVisible();

  await page.goto('/app/specialists');
  await expect(page.getByRole('heading', { name: 'Špecialisti', level: 1 })).toBeVisible();
  await expect(page.getByText('Vyberte si AI alebo ľudského experta a začnite chat.')).toBeVisible();
  await expect(page.getByTestId('specialist').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Chatovať' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Požiadať o špecialistu' }).first()).toBeVisible();
  await expect(page.getByText('AI ŠPECIALISTA').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/specialists.png`, animations: 'disabled' });
});

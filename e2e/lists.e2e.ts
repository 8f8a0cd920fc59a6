// Conversation lists against the local stack: search and filters kept in the address, archive and
// restore by a mouse drag of more than 50 px with the archived count following, and screenshots of
// the lists and the specialists screen at 360 × 640; a touch swipe (72 px) archives; a list of 220
// conversations stays virtualized.
import { expect, test, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import { sql } from './admin-helpers.ts';
import { signIn } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

const SHOTS = 'e2e/artifacts/screenshots';

const rows = (page: Page) => page.getByTestId('conversation-row');
/**
 * The first row after a sign-in waits for the device's first sync of the account, as every other
 * journey's first row does (30 s): by the time these journeys run, the demo account holds every
 * earlier journey's messages, and on a loaded CI machine the default 10 s was once not enough (stop 49:
 * 'search and filters' failed its first attempt on a toBeVisible, passed on the retry, 15/15 since).
 */
const FIRST_SYNC = { timeout: 30_000 };
/**
 * The row whose name is `name`, matched on the name alone: a snippet may name a specialist too (the
 * demo AI's answer in Martin Kováč's chat recommends **Zuzana Bieliková** once an earlier journey asked
 * about web texts), and for a frame after a filter's click the list still shows the rows before it:
 * stop 50 failed 'search and filters' on a strict-mode violation, 003's snippet and 004's name.
 */
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByText(name, { exact: true }) });

/**
 * Scrolls a row to the middle of the list so no header or bottom bar covers it (earlier journeys
 * reorder the list), and returns once the page has not scrolled for 250 ms. A row closes 100 ms after
 * the last scroll event (lib/swipe.ts scrollResetMs), so a gesture made while that scroll, or the
 * route change's scroll to the top, was still settling would be closed again once it ended, and a
 * click on the covered action then waits up to the journey's timeout. That is one way stop 51's touch
 * journey could have hung (its first attempt's cause was not recorded); not reproduced here.
 */
async function centre(target: Locator): Promise<void> {
  await target.evaluate(
    (el) =>
      new Promise<void>((done) => {
        let timer = setTimeout(finish, 250);
        function onScroll() {
          clearTimeout(timer);
          timer = setTimeout(finish, 250);
        }
        function finish() {
          window.removeEventListener('scroll', onScroll, { capture: true });
          done();
        }
        window.addEventListener('scroll', onScroll, { capture: true, passive: true });
        el.scrollIntoView({ block: 'center' });
      }),
  );
}

/** Drags a row left by `dx` px with the mouse (SwipeableRow: more than 50 px reveals the action). */
async function dragLeft(page: Page, target: Locator, dx: number): Promise<void> {
  await centre(target);
  const box = await target.boundingBox();
  if (!box) throw new Error('row not visible');
  const y = box.y + box.height / 2;
  const x = box.x + box.width - 40;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 6; step++) await page.mouse.move(x - (dx * step) / 6, y);
  await page.mouse.up();
}

/** A row swiped left by `dx` px: dragLeft (mouse) or touchSwipeLeft (finger). */
type Swipe = (page: Page, target: Locator, dx: number) => Promise<void>;

/** Michal Tóth's conversation in the demo seed (supabase/seed.sql). */
const MICHAL_CONVERSATION = '00000000-0000-4000-b000-000000000006';

/** Whether the server (not this device's store) holds Michal Tóth's conversation archived. */
async function serverArchived(): Promise<boolean> {
  const [r] = await sql<{ archived: boolean }>('select archived_at is not null as archived from public.conversations where id = $1', [MICHAL_CONVERSATION]);
  return r!.archived;
}

/**
 * Michal is active on the server when an archive journey starts (before its sign-in): a first attempt
 * that failed between archive and restore must not make its retry fail on the row's absence instead
 * of showing the cause.
 */
async function michalActive(): Promise<void> {
  await sql('update public.conversations set archived_at = null where id = $1 and archived_at is not null', [MICHAL_CONVERSATION]);
}

const michal = (page: Page) => page.getByRole('listitem').filter({ hasText: 'Michal Tóth' });

/**
 * On the active list: a `short` swipe of Michal Tóth's row reveals nothing, a `long` one reveals
 * Archivovať, which archives it; the archived count goes up by one. Returns the count before.
 */
async function archiveMichal(page: Page, swipe: Swipe, short: number, long: number): Promise<number> {
  const count = page.getByTestId('archived-count');
  await expect(row(page, 'Michal Tóth')).toBeVisible(FIRST_SYNC);
  await expect(count).toHaveText(/^\d+$/);
  const before = Number(await count.textContent());
  await swipe(page, row(page, 'Michal Tóth'), short);
  await expect(michal(page).locator('[data-revealed="true"]')).toHaveCount(0);
  await swipe(page, row(page, 'Michal Tóth'), long);
  await expect(michal(page).locator('[data-revealed="true"]')).toHaveCount(1);
  await michal(page).getByRole('button', { name: 'Archivovať' }).click();
  await expect(row(page, 'Michal Tóth')).toHaveCount(0);
  await expect(count).toHaveText(String(before + 1));
  await expect.poll(serverArchived, { timeout: 30_000 }).toBe(true);
  return before;
}

/**
 * On the archive: a `long` swipe reveals Obnoviť, which restores Michal Tóth; a fresh load shows the
 * row back in the active list and the archived count back at `before`, and the server holds it too.
 * The last is asked of the database: a reload reads this device's store, where the restore shows at
 * once (R1.6) while it may still be queued, so a journey could end with its restore unsent and leave
 * Michal archived for the next one's fresh sign-in (stop 51's touch retry found Michal archived on the
 * server, its first attempt having stopped between archive and restore).
 */
async function restoreMichal(page: Page, swipe: Swipe, long: number, before: number): Promise<void> {
  await swipe(page, row(page, 'Michal Tóth'), long);
  await expect(michal(page).locator('[data-revealed="true"]')).toHaveCount(1);
  await michal(page).getByRole('button', { name: 'Obnoviť' }).click();
  await expect(row(page, 'Michal Tóth')).toHaveCount(0);
  await page.goto('/app/chats');
  await expect(row(page, 'Michal Tóth')).toBeVisible();
  await expect(page.getByTestId('archived-count')).toHaveText(String(before));
  await expect.poll(serverArchived, { timeout: 30_000 }).toBe(false);
}

test('search and filters live in q and filter; the empty text for no match', async ({ page }) => {
  await signIn(page, 'demo@poradna.test', { lands: /\/app\/chats/ });
  await expect(row(page, 'Lucia Horváthová')).toBeVisible(FIRST_SYNC);
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
  await michalActive();
  await signIn(page, 'demo@poradna.test', { lands: /\/app\/chats/ });
  // A short drag (40 px) does not reveal the action; 70 px does.
  const before = await archiveMichal(page, dragLeft, 40, 70);

  await page.getByTestId('archived-row').click();
  await expect(page).toHaveURL(/\/app\/archived$/);
  await expect(page.getByRole('heading', { name: 'Archivované' })).toBeVisible();
  await expect(row(page, 'Michal Tóth')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/archived.png`, animations: 'disabled' });
  await restoreMichal(page, dragLeft, 70, before);
});

test('archived list search without a match, and the specialists screen', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
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

/** Swipes a row left by `dx` px with real touch events (CDP), as a finger on a phone would. */
async function touchSwipeLeft(page: Page, target: Locator, dx: number): Promise<void> {
  await centre(target);
  const box = await target.boundingBox();
  if (!box) throw new Error('row not visible');
  const y = Math.round(box.y + box.height / 2);
  const x = Math.round(box.x + box.width - 40);
  const cdp = await page.context().newCDPSession(page);
  const point = (px: number) => [{ x: px, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(x) });
  for (let step = 1; step <= 8; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(Math.round(x - (dx * step) / 8)) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('touch', () => {
  test.use({ hasTouch: true, isMobile: true });
  // Two app loads, four gestures and two server round trips: 8 s on a quiet machine, 25 s with the
  // page's CPU throttled tenfold. Stop 51's first attempt ended at about the 60 s default, cause not
  // recorded (CI keeps only the retry's trace), so this journey states each step (and the default is now 120 s).

  test('a touch swipe of 72 px or more reveals Archivovať; the row moves to the archive', async ({ page }) => {
    await michalActive();
    await signIn(page, 'demo@poradna.test', { lands: /\/app\/chats/ });
    // 60 px is enough for a mouse (50) but not for a finger (72).
    const before = await archiveMichal(page, touchSwipeLeft, 60, 90);

    await page.getByTestId('archived-row').click();
    await expect(page).toHaveURL(/\/app\/archived$/);
    await expect(row(page, 'Michal Tóth')).toBeVisible();
    // Put it back for the other journeys. (Buttons are pressed with click(): Playwright's tap() does not
    // synthesize a click in this headless Chromium, for any element.)
    await restoreMichal(page, touchSwipeLeft, 90, before);
  });
});

/** Inserts 220 completed conversations (a minute apart) for the user's account as superuser; the oldest one's id. */
async function seedConversations(email: string): Promise<string> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL ?? '' });
  await client.connect();
  try {
    const account = await client.query<{ id: string }>(
      `select au.account_id as id from public.account_users au join auth.users u on u.id = au.user_id where u.email = $1 and au.role = 'owner'`,
      [email],
    );
    const accountId = account.rows[0]!.id;
    const specialist = await client.query<{ id: string }>('select id from public.specialists order by id limit 1');
    // Completed, so one specialist may have many; last_message_at spaced a minute apart, the oldest last.
    const inserted = await client.query<{ id: string }>(
      `with ins as (
         insert into public.conversations (account_id, specialist_id, status, last_message_at)
           select $1, $2, 'completed', now() - make_interval(mins => g) from generate_series(1, 220) g
         returning id, last_message_at)
       select id from ins order by last_message_at asc limit 1`,
      [accountId, specialist.rows[0]!.id],
    );
    const total = await client.query<{ n: string }>('select count(*) as n from public.conversations where account_id = $1', [accountId]);
    expect(Number(total.rows[0]!.n)).toBeGreaterThanOrEqual(220);
    return inserted.rows[0]!.id;
  } finally {
    await client.end();
  }
}

test('a list of 220 conversations keeps a small DOM; scrolling down reaches the last one', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const anon = process.env.E2E_ANON_KEY ?? '';
  const origin = await (async () => {
    const script = await (await fetch(`${baseURL ?? ''}/env.js`)).text();
    const announced = /"supabaseUrl"\s*:\s*"([^"]+)"/.exec(script)?.[1];
    return announced ? new URL(announced).origin : (baseURL ?? '');
  })();
  const email = `e2e-many-${Date.now()}@poradna.test`;
  // Public sign-up mails a confirmation and answers no session (hosted default): register confirmed
  // through the admin API, then sign in with the password.
  const service = process.env.E2E_SERVICE_KEY ?? '';
  const created = await request.post(`${origin}/auth/v1/admin/users`, { headers: { apikey: service, Authorization: `Bearer ${service}` }, data: { email, password: 'poradna123', email_confirm: true } });
  expect(created.ok(), await created.text()).toBe(true);
  const signup = await request.post(`${origin}/auth/v1/token?grant_type=password`, { headers: { apikey: anon, Authorization: `Bearer ${anon}` }, data: { email, password: 'poradna123' } });
  expect(signup.ok(), await signup.text()).toBe(true);
  const token = ((await signup.json()) as { access_token?: string }).access_token ?? '';
  const first = await request.post(`${origin}/functions/v1/ensure-first-conversation`, { headers: { apikey: anon, Authorization: `Bearer ${token}` }, data: {} });
  expect(first.ok(), await first.text()).toBe(true);

  const oldestId = await seedConversations(email);

  await signIn(page, email, { lands: /\/app\/chats/ });
  await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
  const rendered = await rows(page).count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(40);

  const last = page.locator(`[data-testid="conversation-row"][href="/app/chats/${oldestId}"]`);
  await expect(last).toHaveCount(0);
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(last).toBeInViewport({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(await rows(page).count()).toBeLessThan(40);
});

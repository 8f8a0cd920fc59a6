// Issue 40, second part, on the phone (touch) and the desktop: a message's actions menu (long press,
// right click, the keyboard), copy puts the markdown source on the clipboard, a reply's quote is
// sent and shown on another device (a click jumps to the original), day separators, the jump to the
// newest with its count (an arrival never moves the view), and a draft that survives a reload and
// shows as 'Koncept:' in the list. Screenshots to e2e/artifacts/screenshots (SHOTS_DIR), axe at rest.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './axe-helpers.ts';
import { DESKTOP, PHONE, freshChat, rest } from './defects-helpers.ts';
import { storedDrafts } from './sync-dump.ts';
import { storeSession } from './stored-session.ts';

const SHOTS = process.env.SHOTS_DIR ?? 'e2e/artifacts/screenshots';
const DAY = 86_400_000;
const composer = (page: Page) => page.getByRole('textbox', { name: 'Správa' });
const bubble = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

async function device(browser: Browser, baseURL: string, phone: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: phone ? PHONE : { width: 1440, height: 900 },
    hasTouch: phone,
    isMobile: phone,
    bypassCSP: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  return { context, page: await context.newPage() };
}

/** The browsers' time zone (playwright.config.ts `timezoneId`; contexts made here inherit it). */
const ZONE = 'Europe/Bratislava';

/** The instant `ZONE`'s day that holds `t` began (exact across a daylight-saving change). */
function zoneDayStart(t: number): number {
  const wall = (x: number) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
        .formatToParts(x)
        .map((part) => [part.type, Number(part.value)]),
    ) as Record<string, number>;
    return { day: Date.UTC(p['year']!, p['month']! - 1, p['day']), at: Date.UTC(p['year']!, p['month']! - 1, p['day'], p['hour'], p['minute'], p['second']) };
  };
  const { day } = wall(t);
  // The zone's offset at a moment is its wall clock minus the moment; the day's start is its wall
  // midnight minus the offset there (asked twice: the offset at t may not be the one at midnight).
  const offsetAt = (x: number) => wall(x).at - (x - (x % 1000));
  const guess = day - offsetAt(t);
  return day - offsetAt(guess);
}

/**
 * The times of `count` messages today, all at least a minute before now, so the chat's greeting (written
 * by freshChat, now) stays its newest message whatever the hour: `at(daysAgo, i)` is the i-th of them,
 * `daysAgo` days back. Days are the browsers' (`ZONE`), as the day separators show them: this process
 * runs in UTC, and its own midnight put an hour of 'today' on the wrong side of the page's. They start
 * at 00:00:30 a minute apart, closer together when the day is younger than that (a run at 00:07 placed
 * today's 30 messages up to 00:30, after the greeting, and the chat no longer opened on it: session
 * 33). The first two minutes of the day are waited out, and the journey's time limit grows by that
 * wait (a run at 00:00 UTC ran out of its 60 s waiting: session 41).
 */
async function todayBeforeNow(count: number): Promise<(daysAgo: number, i: number) => string> {
  const young = Date.now() - zoneDayStart(Date.now());
  if (young < 120_000) {
    test.info().setTimeout(test.info().timeout + (120_000 - young));
    await new Promise((r) => setTimeout(r, 120_000 - young));
  }
  const today = zoneDayStart(Date.now());
  const start = today + 30_000;
  const step = Math.min(60_000, Math.floor((Date.now() - 60_000 - start) / count));
  // Each day's own start (noon of that day, then back to its midnight): a day of 23 or 25 hours moves nothing.
  return (daysAgo, i) => new Date(zoneDayStart(today - daysAgo * DAY + DAY / 2) + 30_000 + i * step).toISOString();
}

/** A chat with messages of three days (two days ago, yesterday, today just after midnight). */
async function chatOverDays(baseURL: string, prefix: string) {
  const at = await todayBeforeNow(1);
  const chat = await freshChat(baseURL, prefix);
  await rest(baseURL, 'messages', {
    method: 'POST',
    prefer: 'return=minimal',
    body: [
      { conversation_id: chat.conversationId, direction: 'specialist', source: 'chatwoot', text: 'Brief **kampane** je v [zdieľanom priečinku](https://example.com/brief)', created_at: at(2, 0) },
      { conversation_id: chat.conversationId, direction: 'specialist', source: 'chatwoot', text: 'Rozpočet je 2 500 €', created_at: at(1, 0) },
      { conversation_id: chat.conversationId, direction: 'specialist', source: 'chatwoot', text: 'Dobré ráno, ozvite sa', created_at: at(0, 0) },
    ],
  });
  return chat;
}

test('phone: long press opens the menu, a reply is sent with its quote and shown on the desktop; day separators', async ({ browser, baseURL }) => {
  const chat = await chatOverDays(baseURL!, 'odpoved');
  const phone = await device(browser, baseURL!, true);
  const page = phone.page;
  await storeSession(page, chat.user.email);
  await page.goto(`/app/chats/${chat.conversationId}`);
  await expect(bubble(page, 'Dobré ráno')).toBeVisible({ timeout: 20_000 });

  // Day separators: today, yesterday, and a weekday for two days ago; bubbles show only the time.
  await expect(page.getByRole('separator', { name: 'Dnes' })).toBeVisible();
  await expect(page.getByRole('separator', { name: 'Včera' })).toBeVisible();
  const older = page.getByRole('separator').filter({ hasNotText: /Dnes|Včera/ }).first();
  await expect(older).toHaveAttribute('aria-label', /^(pondelok|utorok|streda|štvrtok|piatok|sobota|nedeľa) \d{1,2}\. [a-zžščťľňýáíéúô]+$/);
  await expect(bubble(page, 'Rozpočet je').locator('time')).toHaveText(/^\d\d:\d\d$/);

  // A long press (a held touch, from the DevTools protocol: Playwright's touchscreen only taps).
  const target = bubble(page, 'Rozpočet je').getByTestId('bubble');
  const box = (await target.boundingBox())!;
  const cdp = await phone.context.newCDPSession(page);
  const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  const menu = page.getByRole('menu', { name: 'Akcie správy' });
  await expect(menu).toBeVisible();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(menu.getByRole('menuitem')).toHaveText(['Kopírovať', 'Odpovedať']);
  await expect(menu.getByRole('menuitem', { name: 'Kopírovať' })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/chat-menu-phone.png` });
  await menu.getByRole('menuitem', { name: 'Odpovedať' }).click();
  await expect(menu).toHaveCount(0);

  const preview = page.getByTestId('reply-preview');
  await expect(preview).toContainText('Rozpočet je 2 500 €');
  await expect(composer(page)).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/chat-reply-phone.png` });
  const text = `Súhlasím s rozpočtom ${Date.now()}`;
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(preview).toHaveCount(0);
  const mine = bubble(page, text);
  await expect(mine).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await expect(mine.getByTestId('reply-quote')).toContainText('Rozpočet je 2 500 €');
  // On the server: payload.reply_to is the quoted message's id.
  const quoted = (await rest(baseURL!, `messages?select=id&conversation_id=eq.${chat.conversationId}&text=eq.Rozpočet je 2 500 €`)) as { id: string }[];
  const sent = (await rest(baseURL!, `messages?select=payload&conversation_id=eq.${chat.conversationId}&text=eq.${encodeURIComponent(text)}`)) as { payload: { reply_to?: string } }[];
  expect(sent[0]?.payload.reply_to).toBe(quoted[0]!.id);
  expect(await axeViolations(page)).toEqual([]);

  // The other device: the quote renders there too; a click scrolls to the original and highlights it.
  const desk = await device(browser, baseURL!, false);
  await storeSession(desk.page, chat.user.email);
  await desk.page.goto(`/app/chats/${chat.conversationId}`);
  const there = bubble(desk.page, text);
  await expect(there.getByTestId('reply-quote')).toContainText('Rozpočet je 2 500 €', { timeout: 20_000 });
  await desk.page.screenshot({ path: `${SHOTS}/chat-reply-desktop.png` });
  await there.getByTestId('reply-quote').click();
  const original = desk.page.getByRole('listitem').filter({ has: bubble(desk.page, 'Rozpočet je 2 500 €') }).filter({ hasNot: desk.page.getByTestId('reply-quote') });
  await expect(original).toHaveAttribute('data-highlighted', 'true');
  await expect(original).toBeInViewport();
  await desk.context.close();
  await phone.context.close();
});

/** A chat long enough to scroll on a desktop: 30 messages of two lines yesterday, 30 today from just after midnight. */
async function longChatOverDays(baseURL: string, prefix: string) {
  const at = await todayBeforeNow(30);
  const chat = await freshChat(baseURL, prefix);
  const line = (day: string, i: number) => `${day} ${i}: návrh textu kampane, rozpočet a termíny pre tím marketingu na tento týždeň`;
  await rest(baseURL, 'messages', {
    method: 'POST',
    prefer: 'return=minimal',
    body: [1, 0].flatMap((daysAgo) =>
      Array.from({ length: 30 }, (_, i) => ({ conversation_id: chat.conversationId, direction: 'specialist', source: 'chatwoot', text: line(daysAgo ? 'Včera' : 'Dnes', i), created_at: at(daysAgo, i) })),
    ),
  });
  return chat;
}

/** The labels the floating day pill showed with (data-shown) since this was called, read by shownPills. */
async function recordShownPills(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { shownPills: string[]; pillObserver?: MutationObserver };
    w.shownPills = [];
    w.pillObserver?.disconnect();
    const note = () => {
      const pill = document.querySelector('[data-testid="sticky-day"][data-shown]');
      if (pill?.textContent) w.shownPills.push(pill.textContent);
    };
    w.pillObserver = new MutationObserver(note);
    w.pillObserver.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-shown'] });
  });
}
const shownPills = (page: Page) => page.evaluate(() => (window as unknown as { shownPills: string[] }).shownPills);

test('phone and desktop: the floating day pill shows while the reader scrolls and is gone once scrolling stops, in both themes', async ({ browser, baseURL }) => {
  // On a phone the pill sat over the first line of the topmost message for as long as the chat was
  // scrolled (issue 40). Now, as in WhatsApp and Telegram, it shows only while scrolling and fades
  // out about a second after; the chat opened at its newest message never shows it at all.
  // Two devices, two themes each: four scroll gestures, four axe passes, eight screenshots. 56 s and
  // a 60 s timeout in the clean-clone run of session 37 at load 27 (another helper's e2e run beside
  // it), 38 s for the whole file in a quiet one. Every wait keeps its own bound; this is the sum's.
  test.setTimeout(120_000);
  const chat = await longChatOverDays(baseURL!, 'denpill');
  for (const phone of [true, false]) {
    const { context, page } = await device(browser, baseURL!, phone);
    const where = phone ? 'phone' : 'desktop';
    await storeSession(page, chat.user.email);
    await page.goto(`/app/chats/${chat.conversationId}`);
    await expect(bubble(page, 'Dobrý deň, ako vám pomôžem?')).toBeInViewport({ timeout: 20_000 });
    const pill = page.getByTestId('sticky-day');
    const scroller = page.getByTestId('message-scroller');
    // Opened at the bottom (scrolled from its top): the pill is not over the text at rest.
    await expect(pill).toBeHidden();
    const cdp = phone ? await context.newCDPSession(page) : null;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const top = await scroller.evaluate((el) => el.scrollTop);
      await recordShownPills(page);
      const box = (await scroller.boundingBox())!;
      const x = Math.round(box.x + box.width / 2);
      const y = Math.round(box.y + box.height / 2);
      if (cdp) {
        // A finger dragged down the screen (the history moves up), from the DevTools protocol: headless
        // Chromium without a GPU ignores Input.synthesizeScrollGesture, but scrolls for touch events.
        const from = y - 300;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: from }] });
        for (let i = 1; i <= 15; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: from + i * 40 }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      } else {
        await page.mouse.move(x, y);
        for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
      }
      await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeLessThan(top - 300);
      // While scrolling the pill named the topmost row's day...
      await expect.poll(() => shownPills(page)).not.toEqual([]);
      for (const label of await shownPills(page)) expect(['Dnes', 'Včera']).toContain(label);
      await page.screenshot({ path: `${SHOTS}/chat-day-pill-scrolling-${where}-${scheme}.png` });
      // ...and once the scrolling has stopped it is gone, not left over the first line of text.
      await expect(pill).toBeHidden();
      await expect(pill).toHaveCSS('visibility', 'hidden');
      await page.screenshot({ path: `${SHOTS}/chat-day-pill-rest-${where}-${scheme}.png` });
      expect(await axeViolations(page)).toEqual([]);
    }
    await context.close();
  }
});

test('desktop: right click and the keyboard open the menu; copy puts the markdown source on the clipboard', async ({ browser, baseURL }) => {
  const chat = await chatOverDays(baseURL!, 'kopirovat');
  const { context, page } = await device(browser, baseURL!, false);
  await storeSession(page, chat.user.email);
  await page.goto(`/app/chats/${chat.conversationId}`);
  const brief = bubble(page, 'Brief');
  await expect(brief).toBeVisible({ timeout: 20_000 });

  // Keyboard: the actions button is in the tab order; Enter opens, arrows move, Escape returns focus.
  const button = brief.getByRole('button', { name: 'Akcie správy' });
  await button.focus();
  await expect(button).toBeVisible();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Akcie správy' });
  await expect(menu.getByRole('menuitem', { name: 'Kopírovať' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Odpovedať' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Kopírovať' })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/chat-menu-desktop.png` });
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();

  // Right click, then 'Kopírovať' by keyboard: the text as written (markdown), and a toast.
  await brief.getByTestId('bubble').click({ button: 'right' });
  await expect(menu).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Správa je skopírovaná')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Brief **kampane** je v [zdieľanom priečinku](https://example.com/brief)');
  await context.close();
});

for (const phone of [true, false]) test(`jump to the newest (${phone ? 'phone' : 'desktop'}): arrivals while reading older messages are counted and never move the view`, async ({ browser, baseURL }) => {
  {
    const chat = await freshChat(baseURL!, phone ? 'najnovsie-p' : 'najnovsie-d');
    const start = Date.now() - 3_600_000;
    await rest(baseURL!, 'messages', {
      method: 'POST',
      prefer: 'return=minimal',
      body: Array.from({ length: 40 }, (_, i) => ({ conversation_id: chat.conversationId, direction: 'specialist', source: 'chatwoot', text: `Staršia správa ${i}`, created_at: new Date(start + i * 1000).toISOString() })),
    });
    const { context, page } = await device(browser, baseURL!, phone);
    await storeSession(page, chat.user.email);
    await page.goto(`/app/chats/${chat.conversationId}`);
    await expect(bubble(page, 'Staršia správa 39')).toBeVisible({ timeout: 20_000 });
    const scroller = page.getByTestId('message-scroller');
    await scroller.evaluate((el) => (el.scrollTop = 0));
    const jump = page.getByTestId('jump-to-newest');
    await expect(jump).toBeVisible();
    await expect(bubble(page, 'Staršia správa 1').first()).toBeInViewport();
    const before = await scroller.evaluate((el) => el.scrollTop);
    for (let i = 1; i <= 3; i++) {
      await rest(baseURL!, 'messages', { method: 'POST', prefer: 'return=minimal', body: { conversation_id: chat.conversationId, direction: 'specialist', source: 'chatwoot', text: `Nová odpoveď ${i}` } });
    }
    await expect(jump).toHaveText('3 nové správy', { timeout: 20_000 });
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(before);
    await expect(bubble(page, 'Staršia správa 1').first()).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/chat-jump-${phone ? 'phone' : 'desktop'}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await jump.click();
    await expect(bubble(page, 'Nová odpoveď 3')).toBeInViewport();
    await expect(jump).toHaveCount(0);
    await context.close();
  }
});

/**
 * R16.4: types `more` at the composer's end and reloads the page in the same task as the last
 * keystroke's input event (a listener after React's), the sharpest form of a tab killed or reloaded
 * right after a keystroke: the unload aborts that keystroke's IndexedDB save. (Playwright's own
 * reload lands a few ms later, by when that save had committed 12 times in 12 here; CI once lost it
 * 52 ms after the keystroke, under load.) The last character of `more` is pressed as a key, so it
 * must be one of the keyboard's (not 'ď').
 */
async function typeAndReloadAtOnce(page: Page, more: string): Promise<void> {
  // No wait for anything after the reload before: its stored draft shows as soon as IndexedDB
  // answers, possibly before the chat's conversation is read, and keys pressed then must land (stop
  // 52: the textarea was still disabled then and 'rýchlo a' became 'rýchloa').
  await composer(page).press('End');
  if (more.length > 1) await composer(page).pressSequentially(more.slice(0, -1));
  await page.evaluate(() => window.addEventListener('input', () => location.reload(), { once: true }));
  const reloaded = page.waitForEvent('load');
  await composer(page).press(more.slice(-1));
  await reloaded;
}

for (const phone of [true, false]) test(`a draft (${phone ? 'phone' : 'desktop'}) survives a reload, shows as Koncept in the list, and is cleared when sent`, async ({ browser, baseURL }) => {
  // Seven page loads (sign-in, a reload, four navigations) and an axe pass: 45–66 s on the 2-core CI
  // machine under the suite's load (clean-clone run of 2026-11-29: 66 s, timed out at 60 s; its retry
  // 45 s). R16.4's three reloads at once after typing add three page loads (about 1 s each here).
  // Every wait below keeps its own bound; this is the sum's budget.
  test.setTimeout(120_000);
  {
    const chat = await freshChat(baseURL!, phone ? 'koncept-p' : 'koncept-d');
    const { context, page } = await device(browser, baseURL!, phone);
    await storeSession(page, chat.user.email);
    await page.goto(`/app/chats/${chat.conversationId}`);
    await expect(bubble(page, 'Dobrý deň')).toBeVisible({ timeout: 20_000 });
    const draft = `Rozpísaný **brief** ${phone ? 'telefón' : 'počítač'}`;
    await composer(page).fill(draft);
    // This reload comes once the draft's save has committed (R16.1 saves on every change, in a
    // transaction of its own), and that commit removed the write-ahead copy (R16.4): so the text
    // after it comes from IndexedDB alone. The reloads at once after typing come next.
    await expect.poll(() => storedDrafts(page), { message: 'the draft is stored before the reload' }).toContain(draft);
    await page.reload();
    await expect(composer(page)).toHaveValue(draft);
    // R16.4: words typed and the page reloaded at once, with no wait for their IndexedDB saves: the
    // synchronous write-ahead copy brings them back, and the next start folds it into the database,
    // so the list's 'Koncept:' shows them too. Three times: the code before R16.4 lost the last
    // character in 10 of 28 such rounds (more often the busier the machine); this journey failed on
    // it 6 times in 6.
    let typed = draft;
    for (const more of [' rýchlo', ' a', ' teraz']) {
      await typeAndReloadAtOnce(page, more);
      typed += more;
      await expect(composer(page)).toHaveValue(typed);
    }
    await page.goto('/app/chats');
    const row = page.getByTestId('conversation-row').filter({ hasText: 'Koncept:' });
    await expect(row.getByTestId('row-snippet')).toHaveText(`Koncept: Rozpísaný brief ${phone ? 'telefón' : 'počítač'} rýchlo a teraz`, { timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/list-draft-${phone ? 'phone' : 'desktop'}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await row.click();
    await expect(composer(page)).toHaveValue(typed);
    await composer(page).press('Enter');
    await expect(composer(page)).toHaveValue('');
    await page.goto('/app/chats');
    await expect(page.getByTestId('conversation-row').filter({ hasText: 'Rozpísaný brief' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await page.goto(`/app/chats/${chat.conversationId}`); // a new document: what a reload shows
    await expect(composer(page)).toHaveValue('');
    await context.close();
  }
});


test('typed and sent while the chat is still opening: nothing is lost, the send goes once the conversation is here', async ({ browser, baseURL }) => {
  // Stop 52's defect: the stored draft showed while the textarea was still disabled (its conversation
  // not read yet), and keys pressed then were dropped. Here the conversation is not on the device at
  // all: the first pull is held until the member has typed and pressed Enter, so the chat still says
  // 'Načítavam správy...' meanwhile. Before the fix the textarea was disabled then and nothing was typed.
  const chat = await freshChat(baseURL!, 'opening');
  const { context, page } = await device(browser, baseURL!, true);
  await storeSession(page, chat.user.email);
  let held = 0;
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/rest/v1/rpc/sync_pull', async (route) => {
    if (held++ === 0) await released;
    await route.continue();
  });
  await page.goto(`/app/chats/${chat.conversationId}`);
  await expect.poll(() => held, { message: 'the first pull is being held' }).toBe(1);
  await composer(page).pressSequentially('Hneď na začiatku');
  await composer(page).press('Enter');
  await expect(page.getByText('Načítavam správy...'), 'typed while the chat was still opening').toBeVisible();
  await expect(composer(page)).toHaveValue('Hneď na začiatku');
  await expect(page.getByRole('status').filter({ hasText: 'Správa sa odošle, keď sa konverzácia načíta.' })).toBeAttached();
  await expect(page.getByRole('button', { name: 'Odoslať' })).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByText('Správa sa odošle, keď sa konverzácia načíta.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/chat-send-pending-phone.png`, animations: 'disabled' });
  // A tablet turned, a window widened past 1024 px: the same address in two panes. The chat is not
  // remounted (AppLayout's page key stays), so the send still waits, and says so (session 38 saw it
  // forgotten here: the text stayed, the caption and the send went).
  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId('two-pane')).toBeVisible();
  await expect(page.getByText('Správa sa odošle, keď sa konverzácia načíta.'), 'the send still waits after the switch').toBeVisible();
  await page.screenshot({ path: `${SHOTS}/chat-send-pending-desktop.png`, animations: 'disabled' });
  release();
  await expect(bubble(page, 'Hneď na začiatku')).toHaveAttribute('data-state', 'sent', { timeout: 20_000 });
  await expect(bubble(page, 'Hneď na začiatku'), 'sent once').toHaveCount(1);
  await expect(composer(page)).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Odoslať' })).not.toHaveAttribute('aria-busy', 'true');
  await context.close();
});

// Issue 21, user area item 2: markdown never breaks the 390 px phone layout. Bubbles stay within 70 %
// of the chat's width, a long code line scrolls inside its own block, the chat never scrolls sideways,
// and a table keeps its words whole ('Pondelok', not 'Pondel|ok').
import { expect, test, type Page } from '@playwright/test';
import { PHONE, shootBoth } from './defects-helpers.ts';
import { storeSession } from './stored-session.ts';

test.use({ viewport: PHONE, hasTouch: true });

const MARTIN = '00000000-0000-4000-b000-000000000003';
const LUCIA = '00000000-0000-4000-b000-000000000002';

/** Widest bubble relative to the scroller, and whether anything scrolls sideways outside a code block or table. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('[data-testid="message-scroller"]')!;
    const width = scroller.clientWidth;
    const bubbles = [
      ...scroller.querySelectorAll<HTMLElement>(
        '[data-testid="message"] > div, [data-testid="message"] > div > div',
      ),
    ];
    const widest = Math.max(...bubbles.map((b) => b.getBoundingClientRect().width));
    return {
      ratio: widest / width,
      scrollerSideways: scroller.scrollWidth > scroller.clientWidth + 1,
      pageSideways: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    };
  });
}

test('a code block scrolls inside its bubble, which stays within 70 %', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto(`/app/chats/${MARTIN}`);
  const pre = page.locator('.markdown pre').first();
  // The seeded code block is the chat's 2nd message; journeys before this one add newer messages, and
  // the list is virtualized: scroll to the top until the block is rendered.
  const scroller = page.getByTestId('message-scroller');
  await expect(scroller).toBeVisible();
  await expect
    .poll(
      async () => {
        await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
        return pre.count();
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  await pre.scrollIntoViewIfNeeded();
  await expect(pre).toBeVisible();
  const m = await measure(page);
  expect(m.ratio).toBeLessThanOrEqual(0.7 + 0.01);
  expect(m.scrollerSideways).toBe(false);
  expect(m.pageSideways).toBe(false);
  // The long <title> line is wider than the block: the block itself scrolls.
  expect(await pre.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await shootBoth(page, 'code-block');
});

test('a table keeps its words whole and stays within its bubble', async ({ page }) => {
  await storeSession(page, 'demo@poradna.test');
  await page.goto(`/app/chats/${LUCIA}`);
  const cell = page.locator('.markdown td', { hasText: 'Pondelok' });
  await expect(cell).toBeVisible();
  // One line: the word was not broken inside.
  const lines = await cell.evaluate((el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  });
  expect(lines).toBe(1);
  const m = await measure(page);
  expect(m.ratio).toBeLessThanOrEqual(0.7 + 0.01);
  expect(m.scrollerSideways).toBe(false);
  await cell.scrollIntoViewIfNeeded();
  await shootBoth(page, 'table');
});

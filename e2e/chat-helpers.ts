// The chat's message list is virtualized (overscan 3): a bubble scrolled out of view is not in the
// DOM, so "exactly once in the chat" is counted by walking the whole list, not by one DOM query.
import { expect, type Page } from '@playwright/test';

/**
 * How many distinct rows of the open chat hold the user's own bubble with this text: scrolls the
 * message list from the bottom to the top half a screen at a time, collecting row indexes, then
 * returns to the bottom.
 */
export async function ownBubbleRows(page: Page, text: string): Promise<number> {
  return page.evaluate(async (needle) => {
    const scroller = document.querySelector<HTMLElement>('[data-testid="message-scroller"]');
    if (!scroller) return 0;
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const rows = new Set<string>();
    const collect = () => {
      for (const b of scroller.querySelectorAll<HTMLElement>('[data-testid="message"][data-own="true"]')) {
        if (!(b.textContent ?? '').includes(needle)) continue;
        rows.add(b.closest('[data-index]')?.getAttribute('data-index') ?? `dom-${rows.size}`);
      }
    };
    scroller.scrollTop = scroller.scrollHeight;
    await frame();
    collect();
    const step = Math.max(100, Math.floor(scroller.clientHeight / 2));
    while (scroller.scrollTop > 0) {
      scroller.scrollTop = Math.max(0, scroller.scrollTop - step);
      await frame();
      await frame();
      collect();
    }
    scroller.scrollTop = scroller.scrollHeight;
    await frame();
    return rows.size;
  }, text);
}

/** Waits until the open chat shows the user's own bubble with this text exactly once. */
export async function expectOwnBubbleOnce(page: Page, text: string, timeout = 10_000): Promise<void> {
  await expect.poll(() => ownBubbleRows(page, text), { timeout, message: `own bubble "${text}" once in the chat` }).toBe(1);
}

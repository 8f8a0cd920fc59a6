// What a user waiting for the AI's answer to a question saw, frame by frame (R7.5): the question's
// state, whether the typing dots showed and whether its answer's first bubble was in. A dots-less gap
// can be a few frames (a write clearing typing, then the answer), too short for a look from the test,
// so the page records each painted state as typing-view.ts does.
import type { Page } from '@playwright/test';

/** Starts recording for the own question `text`; call before it is sent. */
export async function recordWaiting(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { __waiting: string[] };
    w.__waiting = [];
    let generation = 0;
    const look = (at: number) => {
      if (at !== generation) return;
      const list = [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')];
      const at_ = list.findIndex((b) => b.dataset['own'] === 'true' && b.textContent?.includes(text));
      const question = at_ < 0 ? 'none' : (list[at_]!.dataset['state'] ?? '?');
      const answered = at_ >= 0 && list.slice(at_ + 1).some((b) => b.dataset['own'] === 'false');
      const dots = document.querySelector('[data-testid="typing-indicator"]') !== null;
      const state = `question ${question}, dots ${dots ? 'on' : 'off'}, answer ${answered ? 'in' : 'not yet'}`;
      if (w.__waiting.at(-1) !== state) w.__waiting.push(state);
    };
    const schedule = () => {
      const at = ++generation;
      requestAnimationFrame(() => setTimeout(() => look(at), 0));
    };
    new MutationObserver(schedule).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, text);
}

/** The painted states since recordWaiting, repeats collapsed. */
export async function waitingStates(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __waiting: string[] }).__waiting);
}

// What the user's own bubble said about its message, frame by frame (R6.6): a message once shown sent
// must never be shown sending again, nor vanish, while the answer is awaited. A flip lasts one re-read
// (a frame or a few under load), too short for a look from the test, so the page records the state of
// each painted frame, as typing-view.ts does for the dots.
import type { Page } from '@playwright/test';

/** Starts recording the state of the own bubble holding `text`; call before its send. */
export async function recordOwnStates(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { __ownStates: string[] };
    w.__ownStates = [];
    // Looked at after the frame that painted a state; a look made stale by a later mutation is skipped
    // (the next frame's counts), so only painted states are recorded. Consecutive repeats are one entry.
    // Recorded until the answer begins (the typing dots came and went): a long answer may then push the
    // bubble out of the virtual list's rows, which is not the message vanishing.
    let generation = 0;
    let dotsSeen = false;
    let done = false;
    const look = (at: number) => {
      if (at !== generation || done) return;
      const dots = document.querySelector('[data-testid="typing-indicator"]') !== null;
      if (dotsSeen && !dots) done = true;
      dotsSeen ||= dots;
      const bubble = [...document.querySelectorAll<HTMLElement>('[data-testid="message"][data-own="true"]')].find((b) => b.textContent?.includes(text));
      const state = bubble ? (bubble.dataset['state'] ?? '?') : 'none';
      if (w.__ownStates.at(-1) !== state) w.__ownStates.push(state);
    };
    const schedule = () => {
      const at = ++generation;
      requestAnimationFrame(() => setTimeout(() => look(at), 0));
    };
    new MutationObserver(schedule).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, text);
}

/** The own bubble's painted states since recordOwnStates, repeats collapsed ('none': not in the list). */
export async function ownStates(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __ownStates: string[] }).__ownStates);
}


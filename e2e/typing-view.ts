// Where the typing dots were on screen, frame by frame (issue 40): the dots last only until the AI's
// first word (~0.6 s), too short for a look from the test, so the page records each painted state
// that shows them: whether the notifications prompt was there too, and whether the dots were in the
// message scroller's view and on top at their centre (elementFromPoint there is the dots or inside
// them, not the prompt's row nor anything else).
import type { Page } from '@playwright/test';

export interface TypingView {
  /** The notifications prompt was showing in the same frame. */
  card: boolean;
  /** The dots' bubble lay wholly inside the message scroller and the window. */
  inView: boolean;
  /** What elementFromPoint found at the bubble's centre was the dots or inside them. */
  onTop: boolean;
  /** The element found there, for the failure message. */
  hit: string;
}

/** Starts recording on the open chat; call before the send whose answer shows the dots. */
export async function recordTypingViews(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __typingViews: TypingView[]; __typingLooks: TypingLooks };
    w.__typingViews = [];
    w.__typingLooks = { stale: 0, noDots: 0 };
    // A state is looked at after the frame that painted it (a task queued from its animation frame
    // runs once that frame's layout, resize observers and paint are done). A mutation after the
    // look was queued makes it stale: it is skipped and the next frame's look counts instead, so a
    // state that was never painted (a commit between paint and the look) is never recorded.
    let generation = 0;
    const look = (at: number) => {
      if (at !== generation) {
        w.__typingLooks.stale++;
        return;
      }
      const dots = document.querySelector<HTMLElement>('[data-testid="typing-indicator"]');
      const bubble = dots?.firstElementChild;
      const scroller = document.querySelector<HTMLElement>('[data-testid="message-scroller"]');
      if (!dots || !bubble || !scroller) {
        w.__typingLooks.noDots++;
        return;
      }
      const r = bubble.getBoundingClientRect();
      const s = scroller.getBoundingClientRect();
      const inView = r.top >= s.top && r.bottom <= s.bottom + 0.5 && r.top >= 0 && r.bottom <= window.innerHeight + 0.5;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const within = hit?.closest('[data-testid]')?.getAttribute('data-testid');
      const name = hit ? `${hit.tagName.toLowerCase()}${within ? ` in ${within}` : ''}` : 'nothing';
      w.__typingViews.push({ card: document.querySelector('[data-testid="push-prompt"]') !== null, inView, onTop: hit !== null && dots.contains(hit), hit: name });
    };
    const schedule = () => {
      const at = ++generation;
      requestAnimationFrame(() => setTimeout(() => look(at), 0));
    };
    new MutationObserver(schedule).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    document.addEventListener('scroll', schedule, true);
    window.addEventListener('resize', schedule);
  });
}

/** Looks the recorder skipped: the page changed again before they ran (stale), or no dots were there. */
export interface TypingLooks {
  stale: number;
  noDots: number;
}

/** Every painted state that showed the dots since recordTypingViews. */
export async function typingViews(page: Page): Promise<TypingView[]> {
  return page.evaluate(() => (window as unknown as { __typingViews: TypingView[] }).__typingViews);
}

/** The looks skipped since recordTypingViews, for a failure message. */
export async function typingLooks(page: Page): Promise<TypingLooks> {
  return page.evaluate(() => (window as unknown as { __typingLooks: TypingLooks }).__typingLooks);
}

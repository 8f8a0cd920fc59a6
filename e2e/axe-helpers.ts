// axe-core in a journey, judged at rest: the one accessibility probe of every journey. axe is
// injected as an inline script, which the app's CSP (rightly) refuses: a journey using this sets
// `bypassCSP: true` for the probe only.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What axe judges unless a caller asks for one rule: every rule of WCAG 2.0 A and AA and of WCAG 2.1 AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];

/**
 * The violations axe finds on the page as `rule selector: summary` lines ([] when clean): every WCAG
 * 2.0 A/AA and 2.1 AA rule, or only `only.rule` (e.g. 'color-contrast').
 *
 * Judged at rest, because axe's color-contrast blends text with its ancestors' opacity, so text caught
 * mid-fade reads as too faint (CI: 'Zapnúť' of the push prompt at 4.35:1 while it faded in; the offline
 * notice after a route change, whose page fades in over 0.22 s; sonner's toast title while the toast
 * left). So, before axe runs:
 * - every sonner toast is held still: its timer is paused the way sonner pauses it under the pointer,
 *   so none starts to leave during the run (holdToasts below says how, and why the layout stays);
 * - no toast is arriving or leaving (sonner's data-mounted is true, data-removed false, on each);
 * - no finite animation or transition has run for six frames in a row (endless ones, typing dots,
 *   skeleton pulses, spinners, never end and do not change text opacity).
 * A run during which a finite transition or animation started (a toast the app dismissed or showed
 * then, a page fading in) is thrown away and axe runs again at rest. Toasts are judged like the rest
 * of the page, never excluded: their colours are the app's (AppToaster's contrast overrides).
 * The hold is released after the run: a held toast then leaves after the time it had left.
 */
export async function axeViolations(page: Page, only?: { rule: string }): Promise<string[]> {
  // The hold comes first: injecting axe took 1.3 s on a loaded machine, long enough for a toast's time to end.
  const injected = await page.evaluate(atRest, { phase: 'hold' } as Phase);
  try {
    // Once a document: a client-side route change keeps it, a navigation drops it.
    if (!injected) await page.addScriptTag({ path: AXE });
  } catch (err) {
    await page.evaluate(atRest, { phase: 'release' } as Phase).catch(() => undefined);
    throw err;
  }
  const runOnly = only ? { type: 'rule', values: [only.rule] } : { type: 'tag', values: WCAG_TAGS };
  return (await page.evaluate(atRest, { phase: 'judge', runOnly } as Phase)) as string[];
}

type Phase = { phase: 'hold' } | { phase: 'release' } | { phase: 'judge'; runOnly: { type: string; values: string[] } };

/**
 * In the page (self-contained: Playwright sends its source). 'hold': holds the toasts, answers whether
 * axe is in the page already. 'judge': holds, waits for rest, runs axe, releases, answers the
 * violations. 'release': lets the toasts go.
 */
async function atRest(arg: Phase): Promise<boolean | string[]> {
  const QUIET_FRAMES = 6;
  const REST_WITHIN_MS = 20_000;
  const RUNS = 3;
  type Result = { violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
  const axe = (window as unknown as { axe?: { run?: (context: unknown, options: unknown) => Promise<Result> } }).axe;
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  const finite = (a: Animation) => a.effect?.getComputedTiming().endTime !== Infinity;
  const moving = () => document.getAnimations().filter((a) => a.playState === 'running' && finite(a));
  const toasters = () => [...document.querySelectorAll('[data-sonner-toaster]')].filter((list) => !list.matches(':hover'));

  // Sonner (dist/index.mjs, 2.0.8) pauses every toast's close timer while its Toaster's `expanded`
  // is true (a Toast's timer effect: `if (expanded || interacting || isDocumentHidden) pauseTimer()`,
  // keeping the time left for `startTimer` later); the toaster list sets it on `onMouseMove` and
  // `onMouseEnter` and clears it on `onMouseLeave`. A bubbling mousemove on the list is what React
  // hands to onMouseMove; the real pointer does not move, so nothing else of the page changes its
  // :hover state. What `expanded` does to the layout: data-expanded=true moves a toast to
  // translateY(--offset), and the front toast's offset is 0 (no toast before it), the same place
  // as collapsed; its height becomes its measured height, the one it has. With AppToaster's
  // visibleToasts=1 the toasts behind it are at opacity 0 (data-visible=false) either way; they
  // slide apart, which the wait for rest sees as a transition. Done again on every frame of the
  // wait, so a toaster that appears or is collapsed again (sonner collapses it when its toasts fall
  // to one) is held again. A list under the real pointer is expanded by sonner already and left alone.
  const holdToasts = () => {
    for (const list of toasters()) {
      if ([...list.querySelectorAll('[data-sonner-toast]')].every((t) => t.getAttribute('data-expanded') === 'true')) continue;
      list.dispatchEvent(new MouseEvent('mousemove', { bubbles: true }));
    }
  };
  // The pointer "leaves" the list: React's onMouseLeave, from a mouseout whose relatedTarget is
  // outside it (null: out of the window). The toasts' timers go on with the time they had left.
  const releaseToasts = () => {
    for (const list of toasters()) list.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: null }));
  };
  if (arg.phase === 'hold') {
    holdToasts();
    return typeof axe?.run === 'function';
  }
  if (arg.phase === 'release') {
    releaseToasts();
    return true;
  }
  const { runOnly } = arg;

  const toastsSettled = () =>
    [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')].every(
      (t) => t.dataset.mounted === 'true' && t.dataset.removed !== 'true' && (t.dataset.expanded === 'true' || t.closest(':hover')),
    );
  const rest = async () => {
    const until = performance.now() + REST_WITHIN_MS;
    for (let quiet = 0; quiet < QUIET_FRAMES; ) {
      holdToasts();
      await frame();
      quiet = moving().length === 0 && toastsSettled() ? quiet + 1 : 0;
      if (performance.now() > until) {
        const what = moving().map((a) => `${(a as CSSTransition).transitionProperty ?? (a as CSSAnimation).animationName ?? a.id}`);
        throw new Error(`axe: the page is not at rest after ${REST_WITHIN_MS} ms (moving: ${what.join(', ') || 'none'}; toasts settled: ${toastsSettled()})`);
      }
    }
  };

  // A transition, or an animation not known to be endless, that starts during the run means axe may
  // have measured something mid-way (a spinner or skeleton mounted meanwhile is endless: no harm).
  const judge = async (run: (context: unknown, options: unknown) => Promise<Result>) => {
    let stirred = false;
    const onStart = (e: Event) => {
      if (e instanceof AnimationEvent) {
        const endless = document
          .getAnimations()
          .some((a) => a instanceof CSSAnimation && a.animationName === e.animationName && (a.effect as KeyframeEffect | null)?.target === e.target && !finite(a));
        if (endless) return;
      }
      stirred = true;
    };
    document.addEventListener('transitionrun', onStart, true);
    document.addEventListener('animationstart', onStart, true);
    try {
      const result = await run(document, { runOnly });
      // Transition and animation events are dispatched in the next frames' rendering steps.
      await frame();
      await frame();
      return stirred ? null : result;
    } finally {
      document.removeEventListener('transitionrun', onStart, true);
      document.removeEventListener('animationstart', onStart, true);
    }
  };
  try {
    const run = axe?.run?.bind(axe);
    if (!run) throw new Error('axe: not in the page');
    for (let attempt = 1; ; attempt++) {
      await rest();
      const result = await judge(run);
      if (result) return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
      if (attempt === RUNS) throw new Error(`axe: something started moving during each of ${RUNS} runs; no run judged the page at rest`);
    }
  } finally {
    releaseToasts();
  }
}

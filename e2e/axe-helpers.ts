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
 * notice after a route change, whose page fades in over 0.22 s). So axe runs once no finite animation
 * or transition has run for six frames in a row (endless ones, typing dots, skeleton pulses, spinners,
 * never end and do not change text opacity).
 */
export async function axeViolations(page: Page, only?: { rule: string }): Promise<string[]> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let quietFrames = 0;
        const tick = () => {
          const moving = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
          quietFrames = moving ? 0 : quietFrames + 1;
          if (quietFrames >= 6) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  await page.addScriptTag({ path: AXE });
  const runOnly = only ? { type: 'rule', values: [only.rule] } : { type: 'tag', values: WCAG_TAGS };
  return page.evaluate(async (runOnly) => {
    type Result = { violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<Result> } }).axe;
    const r = await axe.run(document, { runOnly });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  }, runOnly);
}

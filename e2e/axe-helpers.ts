// axe-core in a journey, judged at rest. axe is injected as an inline script, which the app's CSP
// (rightly) refuses: a journey using this sets `bypassCSP: true` for the probe only.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** What axe runs: one rule (e.g. 'color-contrast'), or every rule of WCAG 2 A and AA. */
export type AxeScope = { rule: string } | 'wcag2aa';

/** The violations axe finds on the page as `selector: summary` lines ([] when clean). */
export async function axeViolations(page: Page, scope: AxeScope = 'wcag2aa'): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const runOnly = scope === 'wcag2aa' ? { type: 'tag', values: ['wcag2a', 'wcag2aa'] } : { type: 'rule', values: [scope.rule] };
  return page.evaluate(async (only) => {
    // Judged at rest: a toast fading in (the push prompt after the first send) is, mid-transition, a
    // blend of its colours and the page's (CI once measured 'Zapnúť' at 4.35:1 that way). Finite
    // animations and transitions are awaited; endless ones (typing dots) are left running.
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (let round = 0; round < 20; round++) {
      await frame(); // a toast mounted just now starts its transition a frame later
      const running = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
      if (running.length === 0) break;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            o: unknown,
          ) => Promise<{
            violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[];
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { runOnly: only });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  }, runOnly);
}

// Lighthouse scores of the built PWA (issue 8; benchmark row 9).
//
//   npm run lighthouse                                   # builds ./dist, then measures it
//   LIGHTHOUSE_WEB_DIR=/tmp/x-dist node --import tsx bench/lighthouse.ts   # measure another build
//   LIGHTHOUSE_JSON=/tmp/lh node --import tsx bench/lighthouse.ts          # also keep every report as JSON
//   LIGHTHOUSE_RUNS=5 …                                    # runs per page and preset (median reported; default 3)
//   LIGHTHOUSE_PAGES=/app/specialists,/app/settings LIGHTHOUSE_FORM_FACTORS=mobile …  # other pages/presets
//
// Starts a throwaway stack serving the build, launches Debian Chromium (/usr/bin/chromium, or
// CHROME_PATH) with a persistent throwaway profile and a remote-debugging port — a fresh Chromium
// for every run, as the Lighthouse CLI does (scripts/lighthouse/browser.ts says why) — and runs Lighthouse
// (mobile preset, then desktop) on /auth/login and /app/chats. /auth/login is measured as a first
// visit (the script clears everything the origin stored); /app/chats as the signed-in demo member: the script
// signs in through the login form and Lighthouse runs with disableStorageReset so the session
// (localStorage + IndexedDB) and the installed service worker stay. Prints a table of performance,
// accessibility, best-practices (and SEO), the audits that cost points, and Chromium's own
// installability verdict (Lighthouse 12 dropped the PWA category).
//
// Goals: performance, best-practices ≥ 95 and accessibility 100 on every page and preset.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lighthouseBenchRows, medianRun, renderLighthouseTable, type LighthouseRow } from './lighthouse-report.ts';
import { measureInFreshChromium, withChromium } from '../scripts/lighthouse/browser.ts';
import { FRESH_RENDERER_DOCUMENTS } from '../scripts/lighthouse/renderer-start.ts';
import { runLighthouse, type FormFactor } from '../scripts/lighthouse/run.ts';
import { startTestStack } from '../tests/helpers/stack.ts';

export type { LighthouseRow } from './lighthouse-report.ts';
export { lighthouseBenchRows } from './lighthouse-report.ts';

export interface MeasureOptions {
  /** The build to serve; default LIGHTHOUSE_WEB_DIR or ./dist. */
  webDir?: string;
  formFactors?: FormFactor[];
  /** Paths to measure; /app/… and /admin/… signed in as the demo member. Default /auth/login, /app/chats. */
  pages?: string[];
  /** Runs per page and preset; the row is the median run by performance (default 1). */
  runs?: number;
  /** Keep each full Lighthouse report (JSON, the median run) in this folder. */
  jsonDir?: string;
  log?: (line: string) => void;
}

/** One row per page × form factor, login first (a first visit), then the signed-in chat list. */
export async function measureLighthouse(opts: MeasureOptions = {}): Promise<LighthouseRow[]> {
  const webDir = resolve(opts.webDir ?? process.env.LIGHTHOUSE_WEB_DIR ?? 'dist');
  const formFactors = opts.formFactors ?? ['mobile', 'desktop'];
  const pages = opts.pages ?? ['/auth/login', '/app/chats'];
  const runs = Math.max(1, opts.runs ?? 1);
  const log = opts.log ?? (() => {});
  const stack = await startTestStack({ webDir });
  const profile = await mkdtemp(join(tmpdir(), 'poradna-lh-'));
  const rows: LighthouseRow[] = [];
  try {
    for (const formFactor of formFactors) {
      for (const page of pages) {
        const signedIn = /^\/(app|admin)(\/|$)/.test(page);
        const results = [];
        for (let i = 0; i < runs; i++) {
          log(`lighthouse ${formFactor} ${page} run ${i + 1}/${runs}`);
          // Each run in a Chromium of its own, as the CLI runs (see measureInFreshChromium).
          const measure = () =>
            measureInFreshChromium(
              stack.url,
              profile,
              (b) => (signedIn ? b.signIn() : b.signOut()),
              (b) => runLighthouse(`${stack.url}${page}`, b.port, formFactor, { keepStorage: signedIn }),
            );
          // A run Lighthouse itself gave up on (a runtime error such as NO_NAVSTART, no score) is made
          // once more; a run that scored is never repeated.
          const { row, lhr } = await measure().catch((err: unknown) => {
            log(`  run ${i + 1} failed (${err instanceof Error ? err.message : String(err)}); once more`);
            return measure();
          });
          if ((row.rendererDocumentsAtStart ?? 0) > FRESH_RENDERER_DOCUMENTS) {
            log(`  run ${i + 1}: the page's renderer began with ${row.rendererDocumentsAtStart} documents (not fresh): its score counts earlier pages' heap`);
          }
          results.push({ ...row, lhr });
        }
        const { lhr, ...row } = medianRun(results);
        row.page = page;
        row.runs = results.map((r) => r.performance);
        row.installabilityErrors = await withChromium(stack.url, profile, (b) => b.installabilityErrors(page));
        rows.push(row);
        if (opts.jsonDir) {
          await mkdir(opts.jsonDir, { recursive: true });
          await writeFile(join(opts.jsonDir, `${formFactor}${page.replaceAll('/', '-')}.json`), JSON.stringify(lhr));
        }
      }
    }
  } finally {
    await stack.destroy();
    await rm(profile, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await measureLighthouse({
    log: (l) => console.error(l),
    runs: Number(process.env.LIGHTHOUSE_RUNS ?? 3),
    ...(process.env.LIGHTHOUSE_PAGES ? { pages: process.env.LIGHTHOUSE_PAGES.split(',') } : {}),
    ...(process.env.LIGHTHOUSE_FORM_FACTORS ? { formFactors: process.env.LIGHTHOUSE_FORM_FACTORS.split(',') as FormFactor[] } : {}),
    ...(process.env.LIGHTHOUSE_JSON ? { jsonDir: process.env.LIGHTHOUSE_JSON } : {}),
  });
  console.log(`\n${renderLighthouseTable(rows)}\n`);
  const missed = lighthouseBenchRows(rows).filter((r) => !r.met);
  if (missed.length) console.log(`Below goal: ${missed.map((r) => r.figure).join('; ')}`);
  process.exitCode = 0;
}

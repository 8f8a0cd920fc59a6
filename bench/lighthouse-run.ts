// One Lighthouse navigation against an already running Chromium (its remote-debugging port), turned
// into a LighthouseRow: the category scores, the core metrics and the audits that cost points.
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import type { LighthouseRow } from './lighthouse-report.ts';

export type FormFactor = 'mobile' | 'desktop';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

function score(lhr: Result, id: string): number {
  const s = lhr.categories[id]?.score;
  return typeof s === 'number' ? Math.round(s * 100) : NaN;
}

/** Audits of a category that scored below 1 and carry weight (or are failing a11y/best-practice checks). */
function failing(lhr: Result, category: string): string[] {
  const out: string[] = [];
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const a = lhr.audits[ref.id];
    if (!a || a.score === null || a.score >= 0.9) continue;
    if (ref.weight === 0 && category === 'performance' && a.scoreDisplayMode !== 'metricSavings') continue;
    out.push(`${ref.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  }
  return out;
}

export async function runLighthouse(
  url: string,
  port: number,
  formFactor: FormFactor,
  opts: { keepStorage: boolean; categories?: string[] },
): Promise<{ row: LighthouseRow; lhr: Result }> {
  const categories = opts.categories ?? CATEGORIES;
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: categories,
    // A signed-in page keeps its session and its installed service worker between runs.
    disableStorageReset: opts.keepStorage,
  };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const metrics: Record<string, number> = {};
  for (const id of METRICS) metrics[id] = lhr.audits[id]?.numericValue ?? NaN;
  const row: LighthouseRow = {
    page: new URL(url).pathname,
    formFactor,
    finalUrl: lhr.finalDisplayedUrl,
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    metrics,
    failing: Object.fromEntries(categories.map((c) => [c, failing(lhr, c)])),
    installabilityErrors: [],
    warnings: lhr.runWarnings,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    runs: [],
  };
  return { row, lhr };
}

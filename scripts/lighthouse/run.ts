// Shared by the benchmark (bench/lighthouse.ts, row 9) and the journey (e2e/lighthouse.e2e.ts), so it
// lives apart from both: e2e never imports bench.
// One Lighthouse navigation against an already running Chromium (its remote-debugging port), turned
// into a LighthouseRow: the category scores, the core metrics and the audits that cost points.
import { rendererAtStart } from './renderer-start.ts';
import lighthouse, { desktopConfig, type Artifacts, type Flags, type Result } from 'lighthouse';

/** One page and preset, as measured (bench/lighthouse-report.ts turns these into a table and bench rows). */
export interface LighthouseRow {
  page: string;
  formFactor: 'mobile' | 'desktop';
  /** Where Lighthouse ended up (a redirect to /auth/login means the session was lost). */
  finalUrl: string;
  /** Category scores 0–100. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Lab metrics in ms (cumulative-layout-shift unitless). */
  metrics: Record<string, number>;
  /** Per category: audits scoring under 0.9, with Lighthouse's display value. */
  failing: Record<string, string[]>;
  /** Chromium's Page.getInstallabilityErrors on the page (empty: installable). */
  installabilityErrors: string[];
  warnings: string[];
  /** Lighthouse's CPU benchmark of this machine at run time (higher is faster; a loaded machine scores low). */
  benchmarkIndex: number;
  /** Performance scores of every run of this page and preset; the row is the median run. */
  runs: number[];
  /** Documents in the page's renderer when the run began (renderer-start.ts; 1 when it was fresh). */
  rendererDocumentsAtStart: number | null;
}

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
): Promise<{ row: LighthouseRow; lhr: Result; artifacts: Artifacts }> {
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
    // No trace when only categories without performance were asked for (the e2e guard).
    rendererDocumentsAtStart: rendererAtStart((result.artifacts as unknown as { Trace?: { traceEvents: Parameters<typeof rendererAtStart>[0] } }).Trace?.traceEvents ?? [])?.documents ?? null,
  };
  return { row, lhr, artifacts: result.artifacts };
}

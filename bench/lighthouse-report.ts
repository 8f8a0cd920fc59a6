// Rows of a Lighthouse run, their table, and the benchmark rows (row 9) derived from them.
import type { BenchRow } from './table.ts';
import type { LighthouseRow } from '../scripts/lighthouse/run.ts';

export type { LighthouseRow };


/** The run with the median performance score (Lighthouse's advice for noisy machines). */
export function medianRun<T extends { performance: number }>(runs: T[]): T {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const GOALS = { performance: 95, accessibility: 100, bestPractices: 95 } as const;

export function meetsGoals(r: LighthouseRow): boolean {
  return r.performance >= GOALS.performance && r.accessibility >= GOALS.accessibility && r.bestPractices >= GOALS.bestPractices;
}

const ms = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : `${(n / 1000).toFixed(1)} s`);

export function renderLighthouseTable(rows: LighthouseRow[]): string {
  const head =
    '| page | preset | performance (runs) | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | installable | CPU index | goals |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const body = rows.map((r) => {
    const m = r.metrics;
    const cls = m['cumulative-layout-shift'];
    return `| ${r.page}${r.finalUrl.endsWith(r.page) ? '' : ` → ${new URL(r.finalUrl).pathname}`} | ${r.formFactor} | ${r.performance}${r.runs.length > 1 ? ` (${r.runs.join(', ')})` : ''} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${ms(m['first-contentful-paint'])} | ${ms(m['largest-contentful-paint'])} | ${Math.round(m['total-blocking-time'] ?? NaN)} ms | ${cls === undefined ? '–' : cls.toFixed(3)} | ${r.installabilityErrors.length ? r.installabilityErrors.join(', ') : 'yes'} | ${Math.round(r.benchmarkIndex)} | ${meetsGoals(r) ? 'met' : 'no'} |`;
  });
  const details = rows.flatMap((r) =>
    Object.entries(r.failing)
      .filter(([, ids]) => ids.length)
      .map(([cat, ids]) => `- ${r.formFactor} ${r.page} ${cat}: ${ids.join(', ')}`),
  );
  return [head, ...body, ...(details.length ? ['', 'Audits under 0.9:', ...details] : [])].join('\n');
}

/** Row 9 of the benchmark table: one line per page and score on the mobile preset; baseline = goal. */
export function lighthouseBenchRows(rows: LighthouseRow[]): BenchRow[] {
  return rows
    .filter((r) => r.formFactor === 'mobile')
    .flatMap((r) =>
      (
        [
          ['performance', r.performance, GOALS.performance],
          ['accessibility', r.accessibility, GOALS.accessibility],
          ['best practices', r.bestPractices, GOALS.bestPractices],
        ] as const
      ).map(([name, value, goal]) => ({
        row: '9',
        figure: `Lighthouse mobile ${name}, ${r.page}`,
        poradna: value,
        baseline: goal,
        unit: 'pts',
        better: 'higher' as const,
        goal: `≥ ${goal}`,
        met: value >= goal,
      })),
    );
}

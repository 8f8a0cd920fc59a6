// The benchmark table: each row a figure for Poradňa, the same figure for its baseline, their ratio.
export interface BenchRow {
  row: string;
  figure: string;
  poradna: number;
  baseline: number;
  unit: string;
  /** How to read the ratio: 'higher' means Poradňa/baseline above 1 is better. */
  better: 'higher' | 'lower';
  goal: string;
  met: boolean;
  /** Poradňa/baseline when it is not the quotient of the two medians (median of paired ratios). */
  ratio?: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

const fmt = (n: number) => (Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1)) : '–');

/** Small ratios keep two significant digits (0.012×), so a 80× speed-up does not print as 0.0×. */
export function fmtRatio(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return Math.abs(n) >= 0.1 ? fmt(n) : n.toPrecision(2);
}

export function renderTable(rows: BenchRow[]): string {
  const head = '| row | figure | Poradňa | baseline | ratio | goal | met |\n|---|---|---|---|---|---|---|';
  const body = rows.map(
    (r) =>
      `| ${r.row} | ${r.figure} | ${fmt(r.poradna)} ${r.unit} | ${fmt(r.baseline)} ${r.unit} | ${fmtRatio(r.ratio ?? r.poradna / r.baseline)}× | ${r.goal} | ${r.met ? 'yes' : 'no'} |`,
  );
  return [head, ...body].join('\n');
}

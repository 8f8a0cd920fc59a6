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
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

const fmt = (n: number) => (Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1)) : '–');

export function renderTable(rows: BenchRow[]): string {
  const head = '| row | figure | Poradňa | baseline | ratio | goal | met |\n|---|---|---|---|---|---|---|';
  const body = rows.map(
    (r) =>
      `| ${r.row} | ${r.figure} | ${fmt(r.poradna)} ${r.unit} | ${fmt(r.baseline)} ${r.unit} | ${fmt(r.poradna / r.baseline)}× | ${r.goal} | ${r.met ? 'yes' : 'no'} |`,
  );
  return [head, ...body].join('\n');
}

// Command line of bench/run.ts: --rows 1,2,8 (default every row 1–14; 14a: row 14's photo bubble
// alone, without 14b/14c's uploads; 10c: row 10's many-devices capacity alone, without 10a/10b) and
// --quick.
export interface BenchArgs {
  rows: Set<number>;
  quick: boolean;
  /** --rows was given. */
  explicit: boolean;
  /** --rows 14a (and not 14): only row 14a of row 14 (photo-bubble-row.ts). */
  only14a: boolean;
  /** --rows 10c (and not 10): only row 10c of row 10 (capacity-row.ts). */
  only10c: boolean;
  /** Every row at full length: only such a run is appended to bench/RESULTS.md. */
  full: boolean;
}

export const ALL_ROWS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

export function parseArgs(argv: string[]): BenchArgs {
  let rows: Set<number> | null = null;
  let quick = false;
  let photo = false;
  let whole14 = false;
  let capacity = false;
  let whole10 = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--quick') quick = true;
    else if (a === '--rows' || a.startsWith('--rows=')) {
      const v = a === '--rows' ? argv[++i] : a.slice('--rows='.length);
      if (!v) throw new Error('--rows needs a list, e.g. --rows 1,2,8');
      rows = new Set(
        v.split(',').map((s) => {
          if (s.trim() === '14a') photo = true;
          if (s.trim() === '14') whole14 = true;
          if (s.trim() === '10c') capacity = true;
          if (s.trim() === '10') whole10 = true;
          const n = s.trim() === '14a' ? 14 : s.trim() === '10c' ? 10 : Number(s.trim());
          if (!ALL_ROWS.includes(n)) throw new Error(`unknown row "${s}" (rows are 1–14)`);
          return n;
        }),
      );
    } else throw new Error(`unknown argument "${a}" (use --rows 1,2,… and --quick)`);
  }
  const explicit = rows !== null;
  const selected = rows ?? new Set(ALL_ROWS);
  const only14a = photo && !whole14;
  const only10c = capacity && !whole10;
  return { rows: selected, quick, explicit, only14a, only10c, full: !quick && ALL_ROWS.every((r) => selected.has(r)) };
}

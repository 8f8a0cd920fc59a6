// Comparison of row values (as to_jsonb renders them) with filter literals, following PostgreSQL's
// semantics for the column's type: numbers numerically, timestamps as instants, uuids by their bytes,
// booleans false < true, text by code point (the C collation; a database with another collation may
// order non-ASCII text differently for lt/gt — eq/neq/in are exact either way).
// Invariant: a NULL column value never matches (SQL: NULL compared with anything is not true).

export type ValueKind =
  'number' | 'timestamp' | 'date' | 'time' | 'uuid' | 'bool' | 'text' | 'ci-text' | 'bpchar' | 'enum';

export interface ColumnType {
  /** pg_type.typname, e.g. int4, timestamptz, _text. */
  type: string;
  /** pg_type.typcategory. */
  category: string;
  /** pg_type.typtype ('b' base, 'e' enum, 'd' domain, ...). */
  kind: string;
}

/** Which comparison a column supports, or null when filters on it are refused. */
export function valueKind(col: ColumnType): ValueKind | null {
  if (col.type === 'uuid') return 'uuid';
  if (col.type === 'money') return null; // rendered with a currency symbol; not comparable as a number
  if (col.type === 'citext') return 'ci-text';
  if (col.type === 'bpchar') return 'bpchar';
  if (col.kind === 'e') return 'enum';
  switch (col.category) {
    case 'N':
      return 'number';
    case 'B':
      return 'bool';
    case 'S':
      return 'text';
    case 'D':
      if (col.type === 'date') return 'date';
      if (col.type === 'time' || col.type === 'timetz') return 'time';
      return 'timestamp';
    default:
      return null;
  }
}

/** Ordering operators need a total order PostgreSQL and we agree on. */
export function supportsOrdering(kind: ValueKind): boolean {
  return kind !== 'enum' && kind !== 'ci-text';
}

type Normalized = number | bigint | string | boolean;

const TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Microseconds since the epoch; a value without an offset is read as UTC. */
function timestampMicros(s: string): bigint | null {
  const m = TIMESTAMP_RE.exec(s.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', tz] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  if (!Number.isFinite(ms)) return null;
  let offsetMin = 0;
  if (tz && tz.toUpperCase() !== 'Z') {
    const sign = tz.startsWith('-') ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  return BigInt(ms - offsetMin * 60_000) * 1000n + BigInt(frac.padEnd(6, '0') || '0');
}

const UUID_RE = /^\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;
const TRUE_WORDS = new Set(['t', 'true', 'y', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['f', 'false', 'n', 'no', 'off', '0']);

/** Normalizes a filter literal or a row value; null when it is not a valid value of the kind. */
export function normalize(kind: ValueKind, v: unknown): Normalized | null {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'number': {
      if (typeof v === 'number') return Number.isFinite(v) ? v : null;
      if (typeof v !== 'string' || v.trim() === '') return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : null;
    }
    case 'bool': {
      if (typeof v === 'boolean') return v;
      if (typeof v !== 'string' && typeof v !== 'number') return null;
      const w = String(v).trim().toLowerCase();
      return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : null;
    }
    case 'uuid': {
      const m = typeof v === 'string' ? UUID_RE.exec(v.trim()) : null;
      return m ? m.slice(1).join('').toLowerCase() : null;
    }
    case 'timestamp':
      return typeof v === 'string' ? timestampMicros(v) : null;
    case 'date':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? v.trim() : null;
    case 'time':
      return typeof v === 'string' && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}(:?\d{2})?)?$/.test(v.trim())
        ? v.trim()
        : null;
    case 'ci-text':
      return typeof v === 'string' ? v.toLowerCase() : typeof v === 'number' ? String(v) : null;
    case 'bpchar':
      // char(n) ignores trailing spaces when compared.
      return typeof v === 'string' ? v.replace(/ +$/, '') : null;
    case 'text':
    case 'enum':
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
  }
}

/** -1, 0 or 1; both sides already normalized for the same kind. */
export function compare(a: Normalized, b: Normalized): number {
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

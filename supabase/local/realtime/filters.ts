// postgres_changes filters: `column=op.value`, several joined by commas (AND), each optionally
// negated with `not.`. Operators: eq, neq, lt, lte, gt, gte and in (`in.(a,b,"c,d")`). Values may be
// double-quoted PostgREST-style (`"a,b"`, with \" and \\ escapes), as realtime-js's filter builder does.
// Invariant: a filter is either fully understood and checked against the table's columns at join
// time, or the join fails with a reason — never a subscription that silently matches nothing or all.
import {
  compare,
  normalize,
  supportsOrdering,
  valueKind,
  type ColumnType,
  type ValueKind,
} from './pg-values.ts';

export type Operator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';
const OPERATORS = new Set<string>(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

export interface Condition {
  column: string;
  op: Operator;
  negate: boolean;
  kind: ValueKind;
  /** Normalized literals (one, or the list of `in`). */
  values: (number | bigint | string | boolean)[];
}

export type ParseResult = { ok: true; conditions: Condition[] } | { ok: false; reason: string };

/** Splits on `sep` outside double quotes and parentheses. */
function splitTop(s: string, sep: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return null;
    } else if (c === sep && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted || depth !== 0) return null;
  out.push(s.slice(start));
  return out;
}

/** A bare or double-quoted literal; null when the quoting is broken. */
function unquote(raw: string): string | null {
  if (!raw.startsWith('"')) return raw.includes('"') ? null : raw;
  if (raw.length < 2 || !raw.endsWith('"')) return null;
  let out = '';
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      if (i + 1 >= raw.length - 1) return null;
      out += raw[++i];
    } else if (c === '"') return null;
    else out += c;
  }
  return out;
}

export function parseFilter(
  filter: string,
  columns: ReadonlyMap<string, ColumnType>,
  table: string,
): ParseResult {
  const parts = splitTop(filter, ',');
  if (!parts) return { ok: false, reason: `Malformed filter "${filter}": unbalanced quotes or parentheses` };
  const conditions: Condition[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `Malformed filter "${part}": expected column=operator.value` };
    const column = part.slice(0, eq).trim();
    let rest = part.slice(eq + 1);
    let negate = false;
    if (rest.startsWith('not.')) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    const op = dot < 0 ? rest : rest.slice(0, dot);
    if (dot < 0 || !OPERATORS.has(op))
      return {
        ok: false,
        reason: `Unsupported filter operator "${op}" in "${part}"; supported: eq, neq, lt, lte, gt, gte, in`,
      };
    const col = columns.get(column);
    if (!col)
      return { ok: false, reason: `Unknown column "${column}" in filter "${part}" for table ${table}` };
    const kind = valueKind(col);
    if (!kind)
      return { ok: false, reason: `Filters on column "${column}" of type ${col.type} are not supported` };
    if (op !== 'eq' && op !== 'neq' && op !== 'in' && !supportsOrdering(kind))
      return {
        ok: false,
        reason: `Operator "${op}" is not supported on column "${column}" of type ${col.type}`,
      };
    const rawValue = rest.slice(dot + 1);
    let literals: (string | null)[];
    if (op === 'in') {
      if (!rawValue.startsWith('(') || !rawValue.endsWith(')'))
        return { ok: false, reason: `Malformed filter "${part}": in expects a list like in.(a,b,c)` };
      const items = splitTop(rawValue.slice(1, -1), ',');
      if (!items || (items.length === 1 && items[0]!.trim() === ''))
        return { ok: false, reason: `Malformed filter "${part}": in needs at least one value` };
      literals = items.map((i) => unquote(i.trim()));
    } else literals = [unquote(rawValue)];
    const values: Condition['values'] = [];
    for (const lit of literals) {
      const v = lit === null ? null : normalize(kind, lit);
      if (v === null)
        return {
          ok: false,
          reason: `Invalid value in filter "${part}" for column "${column}" of type ${col.type}`,
        };
      values.push(v);
    }
    conditions.push({ column, op: op as Operator, negate, kind, values });
  }
  return { ok: true, conditions };
}

function holds(c: Condition, raw: unknown): boolean {
  const v = normalize(c.kind, raw);
  if (v === null) return false; // NULL (or an unreadable value): the comparison is not true, negated or not
  let r: boolean;
  if (c.op === 'in') r = c.values.some((x) => compare(v, x) === 0);
  else {
    const d = compare(v, c.values[0]!);
    r =
      c.op === 'eq'
        ? d === 0
        : c.op === 'neq'
          ? d !== 0
          : c.op === 'lt'
            ? d < 0
            : c.op === 'lte'
              ? d <= 0
              : c.op === 'gt'
                ? d > 0
                : d >= 0;
  }
  return c.negate ? !r : r;
}

/**
 * Whether the record satisfies every condition. `undefined` when a condition's column is absent from
 * the record (e.g. a pk-only record), i.e. the filter cannot be evaluated.
 */
export function matches(
  conditions: readonly Condition[],
  record: Readonly<Record<string, unknown>>,
): boolean | undefined {
  let result = true;
  for (const c of conditions) {
    if (!(c.column in record)) return undefined;
    if (!holds(c, record[c.column])) result = false;
  }
  return result;
}

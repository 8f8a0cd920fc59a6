// One comparable form for every timestamp the engine stores: UTC, 'YYYY-MM-DDTHH:MM:SS.ffffffZ'.
// PostgreSQL keeps microseconds and the server orders by them, so the local order (R4.1) must too;
// strings of this fixed shape sort the same way the instants do.

const TS_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Normalizes a server or client timestamp; null when it is not one. */
export function normalizeTimestamp(input: string): string | null {
  const m = TS_RE.exec(input.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', tz] = m;
  let offsetMin = 0;
  if (tz && tz.toUpperCase() !== 'Z') {
    const sign = tz.startsWith('-') ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMin * 60_000;
  if (!Number.isFinite(ms)) return null;
  const dt = new Date(ms);
  const micros = frac.slice(0, 6).padEnd(6, '0');
  return (
    `${pad(dt.getUTCFullYear(), 4)}-${pad(dt.getUTCMonth() + 1, 2)}-${pad(dt.getUTCDate(), 2)}` +
    `T${pad(dt.getUTCHours(), 2)}:${pad(dt.getUTCMinutes(), 2)}:${pad(dt.getUTCSeconds(), 2)}.${micros}Z`
  );
}

/** Like normalizeTimestamp, for values that must be present; throws on garbage. */
export function requireTimestamp(input: string): string {
  const t = normalizeTimestamp(input);
  if (t === null) throw new Error(`not a timestamp: ${input}`);
  return t;
}

export function timestampFromMs(ms: number): string {
  return requireTimestamp(new Date(ms).toISOString());
}

/** Milliseconds since the epoch of a normalized timestamp. */
export function msFromTimestamp(ts: string): number {
  return Date.parse(ts.slice(0, 23) + 'Z');
}

// Filter parsing and evaluation with PostgreSQL's semantics per column type (no server needed).
import { describe, expect, it } from 'vitest';
import { matches, parseFilter } from '../../supabase/local/realtime/filters.ts';
import type { ColumnType } from '../../supabase/local/realtime/pg-values.ts';

const columns = new Map<string, ColumnType>([
  ['id', { type: 'uuid', category: 'U', kind: 'b' }],
  ['n', { type: 'int8', category: 'N', kind: 'b' }],
  ['at', { type: 'timestamptz', category: 'D', kind: 'b' }],
  ['day', { type: 'date', category: 'D', kind: 'b' }],
  ['ok', { type: 'bool', category: 'B', kind: 'b' }],
  ['name', { type: 'text', category: 'S', kind: 'b' }],
  ['mood', { type: 'mood', category: 'E', kind: 'e' }],
  ['meta', { type: 'jsonb', category: 'U', kind: 'b' }],
]);

function check(filter: string, row: Record<string, unknown>): boolean | undefined {
  const parsed = parseFilter(filter, columns, 'public.t');
  if (!parsed.ok) throw new Error(parsed.reason);
  return matches(parsed.conditions, row);
}

function reason(filter: string): string {
  const parsed = parseFilter(filter, columns, 'public.t');
  if (parsed.ok) throw new Error(`${filter} was accepted`);
  return parsed.reason;
}

describe('realtime filters', () => {
  it('compares numbers numerically, not as text', () => {
    expect(check('n=gt.9', { n: 10 })).toBe(true);
    expect(check('n=lt.9', { n: 10 })).toBe(false);
    expect(check('n=eq.10.0', { n: 10 })).toBe(true);
  });

  it('compares timestamps as instants, across offsets and microseconds', () => {
    expect(check('at=eq.2024-05-01T12:00:00+02:00', { at: '2024-05-01T10:00:00+00:00' })).toBe(true);
    expect(check('at=gt.2024-05-01T10:00:00.000001Z', { at: '2024-05-01T10:00:00.000002+00:00' })).toBe(true);
    expect(check('at=gte.2024-05-02', { at: '2024-05-01T23:59:59.999999+00:00' })).toBe(false);
    expect(check('day=lt.2024-05-02', { day: '2024-05-01' })).toBe(true);
  });

  it('compares uuids case-insensitively and booleans as booleans', () => {
    expect(
      check('id=eq.A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', { id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }),
    ).toBe(true);
    expect(check('ok=eq.t', { ok: true })).toBe(true);
    expect(check('ok=neq.true', { ok: false })).toBe(true);
  });

  it('supports in with quoted values, AND of several conditions and not.', () => {
    expect(check('name=in.(a,"b,c",d)', { name: 'b,c' })).toBe(true);
    expect(check('name=in.("say \\"hi\\"")', { name: 'say "hi"' })).toBe(true);
    expect(check('n=gte.1,n=lt.5', { n: 5 })).toBe(false);
    expect(check('mood=not.in.(sad,angry)', { mood: 'happy' })).toBe(true);
  });

  it('never matches NULL, negated or not', () => {
    expect(check('n=neq.1', { n: null })).toBe(false);
    expect(check('n=not.eq.1', { n: null })).toBe(false);
  });

  it('cannot evaluate a condition on a column the record lacks', () => {
    expect(check('name=eq.x', { id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' })).toBeUndefined();
  });

  it('refuses what it cannot evaluate exactly', () => {
    expect(reason('name=like.a%')).toMatch(/Unsupported filter operator "like"/);
    expect(reason('name=is.null')).toMatch(/Unsupported filter operator "is"/);
    expect(reason('nope=eq.1')).toMatch(/Unknown column "nope"/);
    expect(reason('n=eq.ten')).toMatch(/Invalid value/);
    expect(reason('id=eq.123')).toMatch(/Invalid value/);
    expect(reason('mood=lt.sad')).toMatch(/Operator "lt" is not supported/);
    expect(reason('meta=eq.{}')).toMatch(/type jsonb are not supported/);
    expect(reason('name=in.()')).toMatch(/at least one value/);
    expect(reason('name=eq."open')).toMatch(/unbalanced/);
    expect(reason('n')).toMatch(/expected column=operator.value/);
  });
});

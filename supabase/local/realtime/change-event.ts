// The NOTIFY payload written by local_stack.realtime_notify() (supabase/local/sql/realtime.sql).
import { isObject } from './protocol.ts';
import type { ChangeType } from './channel.ts';

export interface ChangeEvent {
  schema: string;
  table: string;
  type: ChangeType;
  commitTimestamp: string;
  pk: Record<string, unknown>;
  /** New row (INSERT, UPDATE); null for DELETE and for truncated payloads. */
  record: Record<string, unknown> | null;
  /** Old row with every column (UPDATE, DELETE); null for INSERT and for truncated payloads. */
  oldRecord: Record<string, unknown> | null;
  /** The row did not fit NOTIFY's 8000 bytes; only the primary key came along. */
  truncated: boolean;
}

const TYPES = new Set(['INSERT', 'UPDATE', 'DELETE']);

/** Null for anything that is not a payload of that trigger (NOTIFY is open to any session). */
export function parseChange(text: string): ChangeEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(v)) return null;
  const { schema, table, type, commit_timestamp, pk, record, old_record, truncated } = v;
  if (typeof schema !== 'string' || typeof table !== 'string' || typeof type !== 'string' || !TYPES.has(type))
    return null;
  if (typeof commit_timestamp !== 'string' || !isObject(pk)) return null;
  return {
    schema,
    table,
    type: type as ChangeType,
    commitTimestamp: commit_timestamp,
    pk,
    record: isObject(record) ? record : null,
    oldRecord: isObject(old_record) ? old_record : null,
    truncated: truncated === true,
  };
}

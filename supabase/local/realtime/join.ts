// Turns a phx_join's config into validated bindings. Invariant: every binding is checked against the
// live catalog (schema, table, publication, filter columns and values, select columns); anything not
// understood fails the whole join with a reason, so a client never holds a subscription that silently
// receives nothing. A table that does not exist, is not published, has no primary key, or whose key
// the subscriber's role may not SELECT all get one and the same answer — Supabase's generic
// "Unable to subscribe to changes with given parameters…" (supabase/realtime,
// lib/extensions/postgres_cdc_rls/subscriptions.ex) — so joins cannot probe which tables exist; the
// precise reason goes to the server log. Supabase's own subscription check is the same privilege test
// (has_column_privilege(role, entity, pk column, 'SELECT') in realtime.subscription_check_filters). The reply echoes each binding, in order, with its id — realtime-js compares
// event/schema/table/filter position by position and unsubscribes on any mismatch.
import type { Catalog } from './catalog.ts';
import type { ChangeType, PgBinding } from './channel.ts';
import { parseFilter } from './filters.ts';
import { isObject, type JsonObject, type JsonValue } from './protocol.ts';

export interface JoinPlan {
  bindings: PgBinding[];
  /** response.postgres_changes of the ok reply. */
  echo: JsonObject[];
  broadcastSelf: boolean;
  broadcastAck: boolean;
  presenceEnabled: boolean;
  /** config.private: the join itself needs the topic rule's consent (connection.ts). */
  private: boolean;
}

export type JoinResult = { ok: true; plan: JoinPlan } | { ok: false; reason: string; detail?: string };

/** Bindings per channel; a join with more is refused (Supabase has no smaller documented limit). */
export const MAX_BINDINGS_PER_CHANNEL = 100;

/** The one answer for every table a subscriber may not subscribe to, whatever the reason. */
function unableToSubscribe(event: string, schema: string, table: string | null, filter: string): string {
  return (
    'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given ' +
    `connect parameters: [event: ${event}, schema: ${schema}, table: ${table ?? '*'}, filters: [${filter}]]`
  );
}

const EVENTS = new Map<string, ChangeType | null>([
  ['*', null],
  ['INSERT', 'INSERT'],
  ['UPDATE', 'UPDATE'],
  ['DELETE', 'DELETE'],
]);

function optionalString(v: JsonValue | undefined): string | null | false {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : false;
}

type Refusal = { reason: string; detail: string };

async function planBinding(
  raw: JsonValue,
  i: number,
  catalog: Catalog,
  id: number,
  role: string,
): Promise<{ binding: PgBinding; echo: JsonObject } | string | Refusal> {
  const where = `postgres_changes[${i}]`;
  if (!isObject(raw)) return `${where} must be an object`;
  const event = typeof raw.event === 'string' ? raw.event : '';
  const type = EVENTS.get(event.toUpperCase());
  if (type === undefined) return `${where}: invalid event "${event}"; use *, INSERT, UPDATE or DELETE`;
  const schema = raw.schema;
  if (typeof schema !== 'string' || schema === '') return `${where}: schema is required`;
  const tableRaw = optionalString(raw.table);
  const filterRaw = optionalString(raw.filter);
  if (tableRaw === false || filterRaw === false) return `${where}: table and filter must be strings`;
  const table = tableRaw === null || tableRaw === '*' ? null : tableRaw;
  const filter = filterRaw ?? '';
  let select: string[] | null = null;
  if (raw.select !== undefined && raw.select !== null) {
    if (!Array.isArray(raw.select) || !raw.select.every((c) => typeof c === 'string'))
      return `${where}: select must be a list of column names`;
    select = raw.select;
  }

  const binding: PgBinding = { id, type, schema, table, conditions: [], select };
  const hidden = (detail: string): Refusal => ({
    reason: `${where}: ${unableToSubscribe(event, schema, table, filter)}`,
    detail: `${where}: ${detail}`,
  });
  if (table === null) {
    if (filter !== '') return `${where}: a filter needs a table`;
    if (select) return `${where}: select needs a table`;
    if (schema !== '*' && !(await catalog.schemaExists(schema)))
      return hidden(`schema "${schema}" does not exist`);
  } else {
    if (schema === '*') return `${where}: schema "*" cannot be combined with a table`;
    const info = await catalog.load(schema, table);
    if (!info) return hidden(`table ${schema}.${table} does not exist`);
    if (!info.published)
      return hidden(
        `table ${schema}.${table} is not in the supabase_realtime publication; run: alter publication supabase_realtime add table ${schema}.${table}`,
      );
    // Without a primary key a change cannot be re-read as the subscriber, so RLS could not be applied.
    if (info.pk.length === 0)
      return hidden(`table ${schema}.${table} has no primary key; realtime needs one`);
    if (!info.visibilityFn)
      return hidden(
        `table ${schema}.${table} is not prepared for realtime; run: select local_stack.sync_realtime_triggers()`,
      );
    if (!(await catalog.canSelectKey(schema, table, info.pk, role)))
      return hidden(`role ${role} may not select the primary key of ${schema}.${table}`);
    if (filter !== '') {
      const parsed = parseFilter(filter, info.columns, `${schema}.${table}`);
      if (!parsed.ok) return `${where}: ${parsed.reason}`;
      binding.conditions = parsed.conditions;
    }
    const unknown = select?.find((c) => !info.columns.has(c));
    if (unknown !== undefined)
      return `${where}: unknown column "${unknown}" in select for table ${schema}.${table}`;
  }

  const echo: JsonObject = { id };
  for (const key of ['event', 'schema', 'table', 'filter', 'select'] as const)
    if (raw[key] !== undefined) echo[key] = raw[key];
  return { binding, echo };
}

export async function planJoin(
  payload: JsonObject,
  catalog: Catalog,
  nextId: () => number,
  role: string,
): Promise<JoinResult> {
  const config = isObject(payload.config) ? payload.config : {};
  const changes = config.postgres_changes ?? [];
  if (!Array.isArray(changes)) return { ok: false, reason: 'config.postgres_changes must be a list' };
  if (changes.length > MAX_BINDINGS_PER_CHANNEL)
    return {
      ok: false,
      reason: `Too many postgres_changes bindings: at most ${MAX_BINDINGS_PER_CHANNEL} per channel`,
    };
  const plan: JoinPlan = {
    bindings: [],
    echo: [],
    broadcastSelf: isObject(config.broadcast) && config.broadcast.self === true,
    broadcastAck: isObject(config.broadcast) && config.broadcast.ack === true,
    presenceEnabled: isObject(config.presence) && config.presence.enabled === true,
    private: config.private === true,
  };
  for (let i = 0; i < changes.length; i++) {
    const r = await planBinding(changes[i]!, i, catalog, nextId(), role);
    if (typeof r === 'string') return { ok: false, reason: r };
    if ('detail' in r) return { ok: false, reason: r.reason, detail: r.detail };
    plan.bindings.push(r.binding);
    plan.echo.push(r.echo);
  }
  return { ok: true, plan };
}

// What the realtime service needs to know about a table: its columns and types (for filters and the
// `columns` field of change payloads), its primary key, replica identity, and whether it is in the
// supabase_realtime publication. Joins always read the catalog fresh; change delivery uses the cached
// entry and refreshes it when a record carries a column the cache does not know (a column was added).
import type pg from 'pg';
import type { ColumnType } from './pg-values.ts';

export interface TableInfo {
  schema: string;
  table: string;
  columns: Map<string, ColumnType>;
  /** [{name, type}] in attribute order, as Supabase sends it. */
  columnList: { name: string; type: string }[];
  pk: string[];
  /** relreplident = 'f': UPDATE events carry the whole old row, as on Supabase. */
  replicaFull: boolean;
  published: boolean;
  /** local_stack.realtime_visible_<oid>(...) for RLS checks, or null when it does not exist. */
  visibilityFn: string | null;
}

const TABLE_SQL = `
select c.relreplident::text as replident,
  case when to_regprocedure(format('local_stack.realtime_visible_%s(jsonb,jsonb,boolean)', c.oid)) is not null
       then format('local_stack.realtime_visible_%s', c.oid) end as visibility_fn,
  exists (select 1 from pg_publication_tables p
          where p.pubname = 'supabase_realtime' and p.schemaname = n.nspname and p.tablename = c.relname) as published,
  coalesce((select json_agg(json_build_object('name', a.attname, 'type', t.typname, 'category', t.typcategory, 'kind', t.typtype)
                            order by a.attnum)
            from pg_attribute a join pg_type t on t.oid = a.atttypid
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]'::json) as columns,
  coalesce((select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
            from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
            where i.indrelid = c.oid and i.indisprimary), '[]'::json) as pk
from pg_class c join pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')`;

interface Row {
  replident: string;
  visibility_fn: string | null;
  published: boolean;
  columns: { name: string; type: string; category: string; kind: string }[];
  pk: string[];
}

export class Catalog {
  private readonly cache = new Map<string, TableInfo>();

  constructor(private readonly pool: pg.Pool) {}

  /** Reads the catalog now; null when the table does not exist. */
  async load(schema: string, table: string): Promise<TableInfo | null> {
    const { rows } = await this.pool.query<Row>(TABLE_SQL, [schema, table]);
    const row = rows[0];
    const key = `${schema}.${table}`;
    if (!row) {
      this.cache.delete(key);
      return null;
    }
    const info: TableInfo = {
      schema,
      table,
      columns: new Map(
        row.columns.map((c) => [c.name, { type: c.type, category: c.category, kind: c.kind }]),
      ),
      columnList: row.columns.map((c) => ({ name: c.name, type: c.type })),
      pk: row.pk,
      replicaFull: row.replident === 'f',
      published: row.published,
      visibilityFn: row.visibility_fn,
    };
    this.cache.set(key, info);
    return info;
  }

  async schemaExists(schema: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('select 1 from pg_namespace where nspname = $1', [schema]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Whether `role` may SELECT every primary-key column: Supabase's own subscription check
   * (has_column_privilege(role, entity, pk, 'SELECT') in realtime.subscription_check_filters).
   * An unknown role is an error in PostgreSQL and a plain "no" here.
   */
  async canSelectKey(schema: string, table: string, pk: readonly string[], role: string): Promise<boolean> {
    try {
      const { rows } = await this.pool.query<{ ok: boolean | null }>(
        `select bool_and(has_column_privilege($1, format('%I.%I', $2::text, $3::text)::regclass, c, 'SELECT')) as ok
           from unnest($4::text[]) c`,
        [role, schema, table, pk],
      );
      return rows[0]?.ok === true;
    } catch {
      return false;
    }
  }

  /** Cached entry, reloaded when `record` has a column the cache lacks. */
  async get(
    schema: string,
    table: string,
    record?: Record<string, unknown> | null,
  ): Promise<TableInfo | null> {
    const hit = this.cache.get(`${schema}.${table}`);
    if (hit && (!record || Object.keys(record).every((k) => hit.columns.has(k)))) return hit;
    return this.load(schema, table);
  }

  clear(): void {
    this.cache.clear();
  }
}

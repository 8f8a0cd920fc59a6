// Asks PostgreSQL which subscriber groups may see a row, reading it as each of them (RLS, grants and
// all) through the table's local_stack.realtime_visible_<oid> (supabase/local/sql/realtime.sql): one
// round trip per event however many subscribers. Concurrency is capped so a burst of events cannot take every
// connection of the shared pool from the rest of the stack.
import type pg from 'pg';

export interface VisibilityQuery {
  /** TableInfo.visibilityFn: a name the catalog built from a table oid, safe to splice into SQL. */
  fn: string;
  pk: Record<string, unknown>;
  /** One claims object per subscriber group; the result is keyed by index into this list. */
  claims: readonly Record<string, unknown>[];
  /** Return the row as read (truncated NOTIFY payloads carry no record). */
  wantRows: boolean;
}

/** index of a claims group that may see the row -> the row (null unless wantRows). */
export type Visibility = Map<number, Record<string, unknown> | null>;

export class RlsChecker {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly maxConcurrent = 6,
  ) {}

  async visible(q: VisibilityQuery): Promise<Visibility> {
    if (q.claims.length === 0) return new Map();
    await this.acquire();
    try {
      // A named statement: each pool connection parses and plans it once, not once per change
      // (the hop NOTIFY received → frame sent is this one round trip). The function is replaced in
      // place by sync_realtime_triggers(), which PostgreSQL's plan invalidation follows.
      const { rows } = await this.pool.query<{
        claims_index: number;
        row_data: Record<string, unknown> | null;
      }>({
        name: `rt:${q.fn}`,
        text: `select claims_index, row_data from ${q.fn}($1::jsonb, $2::jsonb, $3)`,
        values: [JSON.stringify(q.pk), JSON.stringify(q.claims), q.wantRows],
      });
      return new Map(rows.map((r) => [r.claims_index, r.row_data]));
    } finally {
      this.release();
    }
  }

  /**
   * Which claim groups could have read a deleted row, judged on the old row itself by
   * local_stack.realtime_delete_visible (supabase/local/sql/realtime.sql): table privilege, then the
   * table's SELECT policies evaluated on `old` as each subscriber.
   */
  async deleteVisible(q: {
    table: string;
    old: Record<string, unknown>;
    claims: readonly Record<string, unknown>[];
  }): Promise<Set<number>> {
    if (q.claims.length === 0) return new Set();
    await this.acquire();
    try {
      const { rows } = await this.pool.query<{ claims_index: number }>(
        'select claims_index from local_stack.realtime_delete_visible($1::regclass, $2::jsonb, $3::jsonb)',
        [q.table, JSON.stringify(q.old), JSON.stringify(q.claims)],
      );
      return new Set(rows.map((r) => r.claims_index));
    } finally {
      this.release();
    }
  }

  /** public.realtime_topic_allowed(topic) as the subscriber; null when the project has no such rule. */
  async topicAllowed(topic: string, claims: Record<string, unknown>): Promise<boolean | null> {
    await this.acquire();
    try {
      const { rows } = await this.pool.query<{ ok: boolean | null }>(
        'select local_stack.realtime_topic_allowed($1, $2::jsonb) as ok',
        [topic, JSON.stringify(claims)],
      );
      return rows[0]?.ok ?? null;
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    if (this.running < this.maxConcurrent) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

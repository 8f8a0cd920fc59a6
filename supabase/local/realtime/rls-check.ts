// Asks PostgreSQL which subscriber groups may see a row, reading it as each of them (RLS, grants and
// all) through the table's local_stack.realtime_visible_<oid> (supabase/local/sql/realtime.sql): one
// round trip per event however many subscribers. Change checks run on the realtime service's own
// connections (check-pool.ts), whose size bounds how many run at once; a check with many subscriber
// groups is split across them, so a wide fan-out uses both cores instead of one. Join-time checks
// (topic rules) use the stack's shared pool, capped so a burst of joins cannot take all of it.
import type pg from 'pg';
import { CHECK_CONNECTIONS } from './check-pool.ts';

/** Fewest subscriber groups worth a round trip of their own when a check is split. */
const MIN_GROUPS_PER_PART = 32;

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
    /** The stack's shared pool: join-time checks. */
    private readonly pool: pg.Pool,
    /** The realtime service's own connections: change checks (check-pool.ts). */
    private readonly checks: pg.Pool,
    private readonly maxConcurrent = 6,
  ) {}

  async visible(q: VisibilityQuery): Promise<Visibility> {
    if (q.claims.length === 0) return new Map();
    const parts = Math.min(CHECK_CONNECTIONS, Math.floor(q.claims.length / MIN_GROUPS_PER_PART)) || 1;
    const size = Math.ceil(q.claims.length / parts);
    const answers = await Promise.all(
      Array.from({ length: parts }, (_, i) =>
        this.visiblePart(q, i * size, q.claims.slice(i * size, (i + 1) * size)),
      ),
    );
    return new Map(answers.flat());
  }

  /** One round trip for the claim groups `claims` (indices offset by `first`). */
  private async visiblePart(
    q: VisibilityQuery,
    first: number,
    claims: readonly Record<string, unknown>[],
  ): Promise<[number, Record<string, unknown> | null][]> {
    // A named statement: each connection parses and plans it once, not once per change. The function
    // is replaced in place by sync_realtime_triggers(), which PostgreSQL's plan invalidation follows.
    const { rows } = await this.checks.query<{
      claims_index: number;
      row_data: Record<string, unknown> | null;
    }>({
      name: `rt:${q.fn}`,
      text: `select claims_index, row_data from ${q.fn}($1::jsonb, $2::jsonb, $3)`,
      values: [JSON.stringify(q.pk), JSON.stringify(claims), q.wantRows],
    });
    return rows.map((r) => [first + r.claims_index, r.row_data]);
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
    const { rows } = await this.checks.query<{ claims_index: number }>(
      'select claims_index from local_stack.realtime_delete_visible($1::regclass, $2::jsonb, $3::jsonb)',
      [q.table, JSON.stringify(q.old), JSON.stringify(q.claims)],
    );
    return new Set(rows.map((r) => r.claims_index));
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

  /**
   * A private channel's rights as hosted Realtime decides them (supabase/realtime
   * lib/realtime/tenants/authorization.ex): read — probe rows for the topic are inserted by the
   * service, then read back as the subscriber (role, realtime.topic, request.jwt.claims and the legacy
   * claim settings) so realtime.messages' SELECT policies decide; write — a row inserted as the
   * subscriber, refused with insufficient_privilege by its INSERT policies. All rolled back. Any other
   * error counts as no right (hosted: RlsPolicyError → the join is refused). Presence only when the join
   * enabled it, as hosted checks only the extensions in use.
   */
  async privateRights(
    topic: string,
    claims: Record<string, unknown>,
    presence: boolean,
  ): Promise<{ broadcastRead: boolean; presenceRead: boolean; broadcastWrite: boolean }> {
    const none = { broadcastRead: false, presenceRead: false, broadcastWrite: false };
    const role = typeof claims.role === 'string' ? claims.role : '';
    const sub = typeof claims.sub === 'string' ? claims.sub : '';
    const extensions = presence ? ['broadcast', 'presence'] : ['broadcast'];
    await this.acquire();
    const client = await this.pool.connect().catch(() => null);
    if (!client) {
      this.release();
      throw new Error('the database is unavailable');
    }
    try {
      await client.query('begin');
      const probes = await client.query<{ id: string; extension: string }>(
        `insert into realtime.messages (topic, extension) select $1, unnest($2::text[]) returning id, extension`,
        [topic, extensions],
      );
      await client.query(
        `select set_config('role', $1, true), set_config('realtime.topic', $2, true),
                set_config('request.jwt.claims', $3, true), set_config('request.jwt.claim.sub', $4, true),
                set_config('request.jwt.claim.role', $1, true), set_config('request.headers', '{}', true)`,
        [role, topic, JSON.stringify(claims), sub],
      );
      const seen = new Set(
        (await client.query<{ id: string }>('select id from realtime.messages where id = any($1::uuid[])', [
          probes.rows.map((r) => r.id),
        ])).rows.map((r) => r.id),
      );
      const read = (ext: string) => probes.rows.some((r) => r.extension === ext && seen.has(r.id));
      let broadcastWrite = false;
      await client.query('savepoint write_check');
      try {
        await client.query(`insert into realtime.messages (topic, extension) values ($1, 'broadcast')`, [topic]);
        broadcastWrite = true;
      } catch {
        await client.query('rollback to savepoint write_check');
      }
      return { broadcastRead: read('broadcast'), presenceRead: read('presence'), broadcastWrite };
    } catch {
      return none;
    } finally {
      await client.query('rollback').catch(() => undefined);
      client.release();
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

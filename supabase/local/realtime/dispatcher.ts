// Turns each change into postgres_changes messages for the channels that asked for it and may see it.
// Invariants:
// - Order: each socket gets its messages in NOTIFY order (= commit order). Preparation (the RLS round
//   trip) of consecutive events overlaps; a change's frames wait only for the earlier changes that
//   could send on one of the same sockets, not for changes bound elsewhere (another account's slow
//   check does not hold this one). Hosted Realtime promises no more: its poller hands changes in WAL
//   order to each channel's process (supabase/realtime, lib/extensions/postgres_cdc_rls/
//   replication_poller.ex), and Erlang orders messages per sender-receiver pair, i.e. per channel;
//   per socket here is at least that. An `enqueue`d task (system messages to every socket) waits for
//   everything before it, and everything after it waits for it.
// - INSERT/UPDATE reach a subscriber only if PostgreSQL, queried as that subscriber (role + claims),
//   returns the row now; a row that is invisible or already gone sends nothing.
// - DELETE: the row cannot be re-read, so it is judged on its old row, which carries what REPLICA
//   IDENTITY gives (the whole row with FULL; only the primary key otherwise, as in the WAL Supabase
//   reads — then filters on other columns cannot match and the event is dropped, as on Supabase).
//   Stricter than Supabase (which does not RLS-check deletes, realtime.apply_rls in supabase/realtime
//   lib/realtime/tenants/repo/migrations/*_squash_migrations.ex): a DELETE reaches only subscribers
//   whose table privilege and SELECT policies admit the old row (local_stack.realtime_delete_visible).
//   Filters are evaluated on the old row, but a match only matters for a subscriber who passed that
//   check, so a filter can confirm content only of rows its subscriber was allowed to read; another
//   account's guesses get nothing. old_record carries only the primary key, as on Supabase with RLS.
import type { Catalog, TableInfo } from './catalog.ts';
import type { DeliveryTiming } from './deps.ts';
import type { Channel, ChannelSink, PgBinding } from './channel.ts';
import type { ChannelRegistry } from './channel-registry.ts';
import { parseChange, type ChangeEvent } from './change-event.ts';
import { matches } from './filters.ts';
import { encodeRaw } from './protocol.ts';
import type { RlsChecker } from './rls-check.ts';

interface Candidate {
  channel: Channel;
  /** Bindings whose filter already matched (or that have none). */
  sure: PgBinding[];
  /** Bindings whose filter needs the row read from the database (truncated payload). */
  deferred: PgBinding[];
  /** Index of the channel's claims (as they were when the event arrived) in the RLS check. */
  group: number;
}

interface Delivery {
  channel: Channel;
  frame: string;
}

type Row = Record<string, unknown>;

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function pick(row: Row, cols: readonly string[]): Row {
  const out: Row = {};
  for (const c of cols) if (c in row) out[c] = row[c];
  return out;
}

/**
 * The old row of an UPDATE or DELETE as a WAL-based Realtime has it: the whole row only with
 * REPLICA IDENTITY FULL, otherwise the primary key alone.
 */
function walOldRecord(ev: ChangeEvent, info: TableInfo): Row {
  return info.replicaFull && ev.oldRecord ? ev.oldRecord : pick(ev.oldRecord ?? ev.pk, info.pk);
}

export class Dispatcher {
  /** Per socket: settles when every change queued for it so far has been sent. */
  private readonly tails = new Map<ChannelSink, Promise<void>>();
  /** The last enqueue()d task: every change after it waits for it. */
  private barrier: Promise<void> = Promise.resolve();
  private backlog = 0;
  private warnedBacklog = false;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly catalog: Catalog,
    private readonly rls: RlsChecker,
    private readonly log: (line: string) => void,
    private readonly onDelivery?: (d: DeliveryTiming) => void,
  ) {}

  handle(payload: string): void {
    const notifiedAt = performance.now();
    const ev = parseChange(payload);
    if (!ev) {
      this.log('realtime: ignored a NOTIFY payload that is not a change event');
      return;
    }
    const channels = this.registry.candidates(ev.schema, ev.table);
    if (channels.length === 0) return;
    let preparedAt = notifiedAt;
    const prepared = this.prepare(ev, channels).then(
      (ds) => {
        preparedAt = performance.now();
        return ds;
      },
      (err: Error) => {
        this.log(`realtime: dropped ${ev.type} on ${ev.schema}.${ev.table}: ${err.message}`);
        preparedAt = performance.now();
        return [] as Delivery[];
      },
    );
    // Only the sockets a frame may go to are ordered against this change.
    const sinks = new Set(channels.map((c) => c.sink));
    const before: Promise<unknown>[] = [this.barrier];
    for (const sink of sinks) {
      const tail = this.tails.get(sink);
      if (tail) before.push(tail);
    }
    const done = this.track(
      Promise.all([prepared, ...before]).then(([deliveries]) => {
        let frames = 0;
        for (const d of deliveries)
          if (d.channel.open) {
            d.channel.sink.send(d.frame);
            frames++;
          }
        this.onDelivery?.({
          schema: ev.schema,
          table: ev.table,
          type: ev.type,
          notifiedAt,
          preparedAt,
          sentAt: performance.now(),
          frames,
          pk: ev.pk,
          commitTimestamp: ev.commitTimestamp,
        });
      }),
    );
    for (const sink of sinks) this.tails.set(sink, done);
    void done.then(() => {
      for (const sink of sinks) if (this.tails.get(sink) === done) this.tails.delete(sink);
    });
  }

  /** Runs `fn` after every delivery queued before it; deliveries queued later wait for it. */
  enqueue(fn: () => Promise<void> | void): void {
    const before = [this.barrier, ...this.tails.values()];
    this.barrier = this.track(Promise.all(before).then(fn));
  }

  /** Resolves when everything queued so far has been delivered. */
  async idle(): Promise<void> {
    await Promise.all([this.barrier, ...this.tails.values()]);
  }

  /** Counts `work` in the backlog; the answer never rejects (a failure is logged). */
  private track(work: Promise<unknown>): Promise<void> {
    this.backlog++;
    if (this.backlog > 1000 && !this.warnedBacklog) {
      this.warnedBacklog = true;
      this.log(`realtime: ${this.backlog} changes waiting for delivery`);
    }
    return work
      .then(
        () => undefined,
        (err: Error) => this.log(`realtime: delivery failed: ${err.message}`),
      )
      .finally(() => {
        if (--this.backlog === 0) this.warnedBacklog = false;
      });
  }

  private async prepare(ev: ChangeEvent, channels: Channel[]): Promise<Delivery[]> {
    const info = await this.catalog.get(ev.schema, ev.table, ev.record ?? ev.oldRecord);
    if (!info) return [];
    const deleted = ev.type === 'DELETE' ? walOldRecord(ev, info) : null;
    const filterSource = ev.type === 'DELETE' ? deleted : ev.record;
    const candidates: Candidate[] = [];
    for (const channel of channels) {
      const c: Candidate = { channel, sure: [], deferred: [], group: -1 };
      for (const b of channel.bindings) {
        if (b.type !== null && b.type !== ev.type) continue;
        if (b.schema !== '*' && b.schema !== ev.schema) continue;
        if (b.table !== null && b.table !== ev.table) continue;
        const m =
          b.conditions.length === 0 ? true : filterSource ? matches(b.conditions, filterSource) : undefined;
        if (m === true) c.sure.push(b);
        else if (m === undefined && ev.type !== 'DELETE') c.deferred.push(b);
      }
      if (c.sure.length || c.deferred.length) candidates.push(c);
    }
    if (candidates.length === 0) return [];
    const claims = this.groupClaims(candidates);
    if (ev.type === 'DELETE') {
      const visible = await this.rls.deleteVisible({
        table: `${quoteIdent(ev.schema)}.${quoteIdent(ev.table)}`,
        old: deleted ?? {},
        claims,
      });
      const old = pick(deleted ?? ev.pk, info.pk);
      const shared = new Map<string, string>();
      return candidates
        .filter((c) => visible.has(c.group))
        .flatMap((c) => this.frames(c.channel, c.sure, info, ev, null, old, shared));
    }

    if (!info.visibilityFn) {
      this.log(
        `realtime: ${ev.schema}.${ev.table} has no visibility function; run select local_stack.sync_realtime_triggers()`,
      );
      return [];
    }
    const visible = await this.rls.visible({
      fn: info.visibilityFn,
      pk: ev.pk,
      claims,
      wantRows: ev.truncated || !ev.record,
    });
    const old = ev.type === 'UPDATE' ? walOldRecord(ev, info) : null;
    const out: Delivery[] = [];
    // Serialized `data` per select, shared by every subscriber that gets the event's own record.
    const shared = new Map<string, string>();
    for (const c of candidates) {
      // Judged with the claims the channel had when the change arrived, even if an access_token
      // update landed while the check ran: dropping the event instead would leave a gap.
      if (!visible.has(c.group)) continue;
      const record = ev.record ?? visible.get(c.group) ?? null;
      if (!record) continue;
      const ids = [...c.sure, ...c.deferred.filter((b) => matches(b.conditions, record) === true)];
      if (ids.length === 0) continue;
      out.push(
        ...this.frames(
          c.channel,
          ids,
          info,
          ev,
          record,
          old,
          record === ev.record ? shared : new Map<string, string>(),
        ),
      );
    }
    return out;
  }

  /** One RLS check per distinct claim set: sets each candidate's group, returns the claim sets. */
  private groupClaims(candidates: Candidate[]): Row[] {
    const groups = new Map<string, number>();
    const claims: Row[] = [];
    for (const c of candidates) {
      let g = groups.get(c.channel.claimsKey);
      if (g === undefined) {
        groups.set(c.channel.claimsKey, (g = claims.length));
        claims.push(c.channel.token.claims);
      }
      c.group = g;
    }
    return claims;
  }

  /** One frame per distinct `select` among the matched bindings (usually exactly one). */
  private frames(
    channel: Channel,
    bindings: PgBinding[],
    info: TableInfo,
    ev: ChangeEvent,
    record: Row | null,
    old: Row | null,
    cache: Map<string, string>,
  ): Delivery[] {
    const bySelect = new Map<string, PgBinding[]>();
    for (const b of bindings) {
      const key = b.select ? JSON.stringify(b.select) : '';
      bySelect.set(key, [...(bySelect.get(key) ?? []), b]);
    }
    const out: Delivery[] = [];
    for (const [key, group] of bySelect) {
      const dataJson = cache.get(key) ?? this.dataJson(group[0]!.select, info, ev, record, old);
      cache.set(key, dataJson);
      const payload = `{"ids":[${group.map((b) => b.id).join(',')}],"data":${dataJson}}`;
      out.push({
        channel,
        frame: encodeRaw(channel.sink.vsn, channel.joinRef, null, channel.topic, 'postgres_changes', payload),
      });
    }
    return out;
  }

  private dataJson(
    select: string[] | null,
    info: TableInfo,
    ev: ChangeEvent,
    record: Row | null,
    old: Row | null,
  ): string {
    const data: Row = {
      schema: ev.schema,
      table: ev.table,
      commit_timestamp: ev.commitTimestamp,
      type: ev.type,
      columns: select ? info.columnList.filter((c) => select.includes(c.name)) : info.columnList,
    };
    if (record) data.record = select ? pick(record, select) : record;
    if (old) data.old_record = select ? pick(old, select) : old;
    data.errors = null;
    return JSON.stringify(data);
  }
}

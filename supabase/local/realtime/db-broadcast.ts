// Broadcast from the database: a committed realtime.messages row (realtime.send, realtime.broadcast_
// changes) reaches the channels joined to its topic, as hosted Realtime's replication connection hands
// it on (supabase/realtime lib/realtime/tenants/replication_connection.ex: topic, event, payload and
// `private` from the row; published under the private or the public tenant topic; the frame carries
// meta.id, lib/realtime_web/socket/user_broadcast.ex).
// Invariants: the NOTIFY (sql/realtime-messages.sql) names the row only; the row is read from the
// table, so a forged NOTIFY cannot invent a message. A private message reaches private channels only,
// and of those only channels whose token passed the broadcast read policy (Channel.topicAllowed,
// rights.ts); a public one reaches public channels the topic rule admits. Messages go out in NOTIFY
// (commit) order: each read waits for the one before it. A row whose topic no channel has joined is
// not read at all (the NOTIFY names the topic too): nothing could receive it, and most accounts have
// no device online most of the time, so a send would otherwise cost a database read for nobody
// (row 10a, bench/RESULTS.md 2026-11-29). A forged NOTIFY can still only name a row: it can make the
// server read a real row (fanned out on the row's own topic) or skip a read, never invent a message,
// and the row's own NOTIFY names its real topic.
import type pg from 'pg';
import { encodeBroadcast } from './broadcast-codec.ts';
import type { ChannelRegistry } from './channel-registry.ts';
import { encodeRaw, isObject } from './protocol.ts';

interface MessageRow {
  topic: string;
  event: string | null;
  payload: unknown;
  binary_payload: Buffer | null;
  private: boolean | null;
  id: string;
}

export interface BroadcastNotice {
  id: string;
  insertedAt: string;
  /** The row's topic, when the NOTIFY names it (sql/realtime-messages.sql does). */
  topic?: string;
}

/** The key a local_realtime NOTIFY names, or null when the payload is not a broadcast notice. */
export function parseBroadcastNotice(text: string): BroadcastNotice | null {
  if (!text.startsWith('{"broadcast"')) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (!isObject(v) || !isObject(v.broadcast)) return null;
    const { id, inserted_at, topic } = v.broadcast;
    if (typeof id !== 'string' || typeof inserted_at !== 'string') return null;
    return typeof topic === 'string' ? { id, insertedAt: inserted_at, topic } : { id, insertedAt: inserted_at };
  } catch {
    return null;
  }
}

export class DbBroadcaster {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly pool: pg.Pool,
    private readonly log: (line: string) => void,
  ) {}

  handle(notice: BroadcastNotice): void {
    if (notice.topic !== undefined && !this.anyoneOn(`realtime:${notice.topic}`)) return;
    const read = this.pool
      .query<MessageRow>(
        `select topic, event, payload, binary_payload, private, id from realtime.messages
          where id = $1::uuid and inserted_at = $2::timestamp and extension = 'broadcast'`,
        [notice.id, notice.insertedAt],
      )
      .then((r) => r.rows[0] ?? null);
    // The read starts now and is awaited only when the tail reaches it: a read that fails before then
    // (a connect timeout of a starved pool) would be an unhandled rejection, which ends a Node process
    // — the whole stack. It is marked handled here; the tail below still sees the failure and logs it.
    read.catch(() => undefined);
    this.tail = this.tail
      .then(() => read)
      .then((row) => {
        if (row) this.fanOut(row);
      })
      .catch((err: Error) => this.log(`realtime: dropped a database broadcast: ${err.message}`));
  }

  private anyoneOn(topic: string): boolean {
    for (const ch of this.registry.onTopic(topic)) if (ch.open) return true;
    return false;
  }

  private fanOut(row: MessageRow): void {
    if (row.event === null) return; // hosted: event_missing, logged and dropped
    const topic = `realtime:${row.topic}`;
    const priv = row.private === true;
    const json =
      row.binary_payload === null
        ? `{"type":"broadcast","event":${JSON.stringify(row.event)},"payload":${JSON.stringify(row.payload ?? {})},"meta":{"id":${JSON.stringify(row.id)}}}`
        : null;
    for (const ch of this.registry.onTopic(topic)) {
      if (!ch.open || !ch.topicAllowed || ch.private !== priv) continue;
      if (json === null) {
        // Raw bytes have no JSON form; only vsn 2.0.0 clients can receive them.
        const frame = ch.sink.vsn === '2.0.0' ? encodeBroadcast(topic, row.event, row.binary_payload!, false) : null;
        if (frame) ch.sink.send(frame);
        continue;
      }
      ch.sink.send(encodeRaw(ch.sink.vsn, null, null, topic, 'broadcast', json));
    }
  }
}

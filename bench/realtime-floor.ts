// The realtime server's own floor, shared by tests/server/realtime-latency.test.ts and bench row 4's
// floor column (hop-floors.ts): a throwaway published table with the simplest RLS policy
// (owner = auth.uid()), ONE subscriber on a raw Phoenix socket joined as that owner, and rows inserted
// one at a time, each only after the previous one's frame arrived (no queueing behind another event).
// The realtime server's onDelivery hook hands its timings in through `record`; whoever started the
// server wires that hook (the test's own server, or startStack's onRealtimeDelivery in the bench).
import { randomUUID } from 'node:crypto';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import { RawSocket, createTestTable, realtimeUrl, signToken, waitFor } from '../tests/server/realtime-helpers.ts';

export interface ProbeTarget {
  databaseUrl: string;
  /** The HTTP base URL serving /realtime/v1/websocket. */
  url: string;
  anonKey: string;
  jwtSecret: string;
}

export class RealtimeProbe {
  /** The server's deliveries of this probe's table, in order (fed by `record`). */
  readonly deliveries: DeliveryTiming[] = [];
  /** Pass to the realtime server's onDelivery hook (it may also see other tables' changes). */
  readonly record = (d: DeliveryTiming): void => {
    if (d.table === this.table.name) this.deliveries.push(d);
  };

  /**
   * Phoenix heartbeats: the server closes a socket silent for 60 s, and the bench samples this probe
   * only between blocks of sends, which on a loaded machine took longer than that (the probe's first
   * event then never came: "timed out waiting for realtime probe event 0").
   */
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    readonly table: Awaited<ReturnType<typeof createTestTable>>,
    readonly ws: RawSocket,
    /** The subscriber's user id; rows of other owners reach other subscribers (e.g. a bench page). */
    readonly owner: string,
  ) {
    this.heartbeat = setInterval(() => ws.push(null, 'phoenix', 'heartbeat', {}), 20_000);
    this.heartbeat.unref();
  }

  static async open(t: ProbeTarget): Promise<RealtimeProbe> {
    const table = await createTestTable(t.databaseUrl);
    // A connection the server ends (a stack stopping under it: 57P01) fails the query that used it;
    // it must not crash the process through an unhandled 'error' event.
    table.db.on('error', (err) => console.warn(`realtime probe: database connection: ${err.message}`));
    try {
      const ws = await RawSocket.open(realtimeUrl(t.url, t.anonKey));
      const owner = randomUUID();
      const ref = ws.push('1', 'realtime:latency', 'phx_join', {
        config: { postgres_changes: [{ event: 'INSERT', schema: 'public', table: table.name, filter: `owner=eq.${owner}` }] },
        access_token: await signToken(t.jwtSecret, { sub: owner }),
      });
      const reply = await ws.reply(ref);
      if (reply.status !== 'ok') throw new Error(`realtime probe: join refused: ${JSON.stringify(reply.response)}`);
      return new RealtimeProbe(table, ws, owner);
    } catch (err) {
      await table.drop();
      throw err;
    }
  }

  /**
   * Inserts one row (committed on return) and answers its id. In a transaction of its own with COMMIT
   * as a separate round trip, as PostgREST runs send_message: the hop commit → NOTIFY received starts
   * at the row's trigger, and for a real send that includes the client's turn to send COMMIT. An
   * autocommit INSERT has no such turn: in one run on the loaded 2-core machine it read 2.6 ms p50,
   * this way 4.3 ms, and send_message through PostgREST 6.3 ms (2026-11-24, issue 19).
   */
  async insert(owner: string, n: number, label: string): Promise<string> {
    const db = this.table.db;
    await db.query('begin');
    try {
      const { rows } = await db.query<{ id: string }>(
        `insert into public.${this.table.name} (owner, n, label) values ($1, $2, $3) returning id`,
        [owner, n, label],
      );
      await db.query('commit');
      return rows[0]!.id;
    } catch (err) {
      await db.query('rollback').catch(() => undefined);
      throw err;
    }
  }

  /**
   * `events` rows for the probe's own subscriber, one at a time. Answers, per row, its delivery
   * timing and the time from the INSERT's acknowledgement (committed) to the frame's arrival on the
   * socket (performance.now() clock, ms).
   */
  async run(events: number): Promise<{ timing: DeliveryTiming; afterCommit: number }[]> {
    const out: { timing: DeliveryTiming; afterCommit: number }[] = [];
    for (let n = 0; n < events; n++) {
      const label = `lat-${n}-${randomUUID()}`;
      const id = await this.insert(this.owner, n, label);
      const committed = performance.now();
      const at = await waitFor(() => {
        const i = this.ws.frames.findIndex(
          (f) => f[3] === 'postgres_changes' && (f[4] as { data: { record: { label: string } } }).data.record.label === label,
        );
        return i < 0 ? undefined : this.ws.arrivals[i];
      }, `realtime probe event ${n}`);
      // The hook runs when the server sent its frames; wait on it rather than assume the order.
      const timing = await waitFor(() => this.deliveries.find((d) => d.pk.id === id), `delivery timing ${n}`);
      out.push({ timing, afterCommit: Math.max(0, at - committed) });
    }
    return out;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.ws.close();
    await this.table.drop();
  }
}

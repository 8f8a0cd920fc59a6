// Which PostgreSQL backend wrote each message of row 4: the local realtime's NOTIFY carries the
// sending backend's pid (PostgreSQL's NotificationResponse), and each backend is one connection of a
// PostgREST pool. PostgREST hands requests to its pool's connections in turn, so a send often lands on
// a connection that has never run send_message: that connection first loads the catalog entries,
// RLS policies and PL/pgSQL functions a send touches (per connection, tens of ms), which a warm
// connection does not. This tells the two apart in the bench's own sends.
import pg from 'pg';
import { NOTIFY_CHANNEL } from '../supabase/local/realtime/listener.ts';
import { p50p95 } from './stats.ts';

export class WriterPids {
  private readonly byId = new Map<string, number>();

  private constructor(private readonly client: pg.Client) {}

  static async open(databaseUrl: string): Promise<WriterPids> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench writer pids' });
    await client.connect();
    const w = new WriterPids(client);
    client.on('notification', (msg) => {
      if (msg.channel !== NOTIFY_CHANNEL || !msg.payload) return;
      try {
        const p = JSON.parse(msg.payload) as { table?: string; type?: string; pk?: { id?: unknown } };
        if (p.table === 'messages' && p.type === 'INSERT' && typeof p.pk?.id === 'string') w.byId.set(p.pk.id, msg.processId);
      } catch {
        // not a payload of the realtime trigger
      }
    });
    await client.query(`listen ${NOTIFY_CHANNEL}`);
    return w;
  }

  pidOf(id: string | undefined): number | undefined {
    return id === undefined ? undefined : this.byId.get(id);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

/**
 * One line per build: how many of its sends (in send order) were the first send_message of their
 * backend, and the hop `hop` (ms, per send, same order) for those against the rest.
 */
export function coldLine(label: string, pids: (number | undefined)[], hop: number[]): string {
  const seen = new Set<number>();
  const cold: number[] = [];
  const warm: number[] = [];
  pids.forEach((pid, i) => {
    const v = hop[i];
    if (pid === undefined || v === undefined || !Number.isFinite(v)) return;
    (seen.has(pid) ? warm : cold).push(v);
    seen.add(pid);
  });
  const med = (xs: number[]) => (xs.length ? `${p50p95(xs).p50.toFixed(1)} ms` : '—');
  return `${label}: ${cold.length} of ${cold.length + warm.length} sends were the first send_message of their PostgREST connection (${seen.size} connections wrote): on the wire → row written p50 ${med(cold)}, the other sends ${med(warm)}.`;
}

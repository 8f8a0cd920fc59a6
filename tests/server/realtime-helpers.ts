// Helpers for the realtime contract tests: throwaway published tables, user JWTs signed with the
// stack's secret (the auth service is not needed), supabase-js channels that record what they get,
// a raw Phoenix socket for wire-level checks, and polling waits.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createClient,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
  type SupabaseClient,
} from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import { WebSocket } from 'ws';
import { pollFor } from '../helpers/wait.ts';

export type Row = { id: string; owner: string | null; n: number | null; label: string | null };
export type ChangeEventName = '*' | 'INSERT' | 'UPDATE' | 'DELETE';

/** Polls `fn` (every 15 ms, 5 s at most) until it returns a value (not undefined/null/false). */
export function waitFor<T>(
  fn: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  return pollFor(fn, what, timeoutMs, 15);
}

export async function signToken(
  secret: string,
  claims: { sub?: string; role?: string; expiresIn?: number },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const body: Record<string, unknown> = { role: claims.role ?? 'authenticated', aud: 'authenticated' };
  if (claims.sub) body.sub = claims.sub;
  return new SignJWT(body)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (claims.expiresIn ?? 3600))
    .sign(new TextEncoder().encode(secret));
}

/** A published table `public.rt_test_<random>` (id, owner, n, label) with RLS `owner = auth.uid()`. */
export async function createTestTable(
  databaseUrl: string,
  policy = 'owner = auth.uid()',
): Promise<{ name: string; db: pg.Client; drop(): Promise<void> }> {
  const name = `rt_test_${randomBytes(5).toString('hex')}`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`
    create table public.${name} (id uuid primary key default gen_random_uuid(), owner uuid, n int, label text);
    alter table public.${name} enable row level security;
    create policy own_rows on public.${name} for select to authenticated using (${policy});
    grant select, insert, update, delete on public.${name} to authenticated;
    alter publication supabase_realtime add table public.${name};
    select local_stack.sync_realtime_triggers();`);
  return {
    name,
    db,
    async drop() {
      await db.query(`drop table if exists public.${name}; select local_stack.sync_realtime_triggers();`);
      await db.end();
    },
  };
}

/**
 * A supabase-js client whose realtime runs as `token`. The token is set (and awaited) before any
 * channel exists: supabase-js's `accessToken` option resolves it asynchronously, and a channel
 * subscribed before that joins with the anon key instead — against Supabase too.
 */
export async function clientFor(
  url: string,
  anonKey: string,
  token: string,
  realtime: { heartbeatIntervalMs?: number } = {},
): Promise<SupabaseClient> {
  const client: SupabaseClient = createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never, timeout: 4_000, ...realtime },
  });
  await client.realtime.setAuth(token);
  return client;
}

export interface Listening {
  channel: RealtimeChannel;
  events: RealtimePostgresChangesPayload<Row>[];
  /** Resolves with the first status other than CLOSED. */
  status: Promise<{ status: string; err?: Error }>;
  statuses: string[];
}

export function listen(
  client: SupabaseClient,
  table: string,
  event: ChangeEventName,
  filter?: string,
): Listening {
  const events: RealtimePostgresChangesPayload<Row>[] = [];
  const statuses: string[] = [];
  const channel = client
    .channel(`t-${randomUUID()}`)
    .on<Row>(
      'postgres_changes',
      { event, schema: 'public', table, ...(filter === undefined ? {} : { filter }) },
      (p) => events.push(p),
    );
  const status = new Promise<{ status: string; err?: Error }>((resolve) => {
    channel.subscribe((s, err) => {
      statuses.push(String(s));
      if (String(s) !== 'CLOSED') resolve(err ? { status: s, err } : { status: s });
    });
  });
  return { channel, events, status, statuses };
}

export async function subscribed(l: Listening): Promise<void> {
  const s = await l.status;
  if (s.status !== 'SUBSCRIBED') throw new Error(`expected SUBSCRIBED, got ${s.status}: ${s.err?.message}`);
}

/** A raw vsn 2.0.0 socket recording every decoded frame. */
export class RawSocket {
  readonly frames: unknown[][] = [];
  /** performance.now() at the arrival of each frame. */
  readonly arrivals: number[] = [];
  closed: { code: number } | undefined;
  private ref = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.frames.push(JSON.parse((data as Buffer).toString('utf8')) as unknown[]);
      this.arrivals.push(performance.now());
    });
    ws.on('close', (code) => (this.closed = { code }));
  }

  static async open(url: string): Promise<RawSocket> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawSocket(ws);
  }

  push(joinRef: string | null, topic: string, event: string, payload: unknown): string {
    const ref = String(++this.ref);
    this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]));
    return ref;
  }

  async reply(ref: string): Promise<{ status: string; response: Record<string, unknown> }> {
    const f = await waitFor(
      () => this.frames.find((x) => x[1] === ref && x[3] === 'phx_reply'),
      `reply ${ref}`,
    );
    return f[4] as { status: string; response: Record<string, unknown> };
  }

  close(): void {
    this.ws.terminate();
  }
}

export function realtimeUrl(base: string, apikey: string, vsn = '2.0.0'): string {
  return `${base.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(apikey)}&vsn=${vsn}`;
}

/** The HTTP status a websocket upgrade gets: 101 when it opens, else the refusal's status. */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.terminate();
    });
    ws.on('error', () => undefined);
  });
}

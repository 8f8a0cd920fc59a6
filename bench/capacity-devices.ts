// Row 10c's simulated devices: accounts whose member signs in on several devices through the local
// auth (real sessions, real JWTs), each device one raw Phoenix websocket (vsn 2.0.0, the protocol
// supabase-js's RealtimeClient speaks; raw so that thousands fit in one Node process: no client-side
// channel objects, timers or push buffers per socket) that joins either the private account topic
// (Broadcast from the database, sync/SPEC.md R18.1/R18.4) or, as devices did before R18, one channel
// with postgres_changes on the account's messages, conversations and read cursors (R6.1).
// Invariant: a device notes each message's arrival by its change_seq (the account's feed number, one
// per row, R5), the only key both transports carry: postgres_changes carries the row, the broadcast
// says {account_id, change_seq} and no row (R18.1) — once per transaction, with the transaction's
// LAST number (since 20261130130000: a send's conversation update is numbered after its message), so
// a broadcast of number n tells a device of every row numbered up to n.
import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type pg from 'pg';
import { WebSocket } from 'ws';
import { realtimeUrl } from '../tests/server/realtime-helpers.ts';

export type Transport = 'broadcast' | 'postgres_changes';

export interface StackAddress {
  url: string;
  anonKey: string;
}

export interface Account {
  accountId: string;
  conversationId: string;
  /** The client address its devices and sends come from (the realtime caps sockets per address). */
  address: string;
  devices: Device[];
  sent: number;
}

const PASSWORD = 'bench-capacity-password';
/**
 * One bcrypt hash for every bench member, at cost 4: the local auth verifies with the hash's own cost
 * (bcryptjs, as GoTrue's bcrypt), so the sign-ins are the real route while thousands of them take
 * seconds, not the minutes cost 10 would (sign-in is not what row 10c measures).
 */
const HASH = bcrypt.hashSync(PASSWORD, 4);

/** Runs `fn` over `items`, at most `n` at a time. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/** The k-th account's client address (10.x.y.z): its own, so per-address caps see one household. */
const addressOf = (k: number) => `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`;

/**
 * `count` new accounts (numbered from `first`), each a member (auth.users insert: the product's
 * trigger makes the account) with one conversation with a human specialist (no AI replies), signed in
 * `devicesPer` times through POST /auth/v1/token?grant_type=password, each device its own session.
 */
export async function makeAccounts(
  db: pg.Client,
  stack: StackAddress,
  first: number,
  count: number,
  devicesPer: number,
  transport: Transport,
): Promise<Account[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const emails = ids.map((id) => `cap-${id}@example.test`);
  await db.query(
    `insert into auth.users (id, email, email_confirmed_at, encrypted_password)
       select unnest($1::uuid[]), unnest($2::text[]), now(), $3`,
    [ids, emails, HASH],
  );
  const { rows } = await db.query<{ user_id: string; account_id: string; conversation_id: string }>(
    `with m as (select user_id, account_id from public.account_users where user_id = any($1::uuid[])),
          c as (insert into public.conversations (account_id, specialist_id)
                  select m.account_id, (select id from public.specialists where not is_ai limit 1) from m
                returning id, account_id)
     select m.user_id, m.account_id, c.id as conversation_id from m join c using (account_id)`,
    [ids],
  );
  const byUser = new Map(rows.map((r) => [r.user_id, r]));
  const accounts = ids.map((id, i): Account => {
    const r = byUser.get(id);
    if (!r) throw new Error(`row 10c: no account for bench member ${i}`);
    return { accountId: r.account_id, conversationId: r.conversation_id, address: addressOf(first + i + 1), devices: [], sent: 0 };
  });
  const slots = accounts.flatMap((a, i) => Array.from({ length: devicesPer }, () => ({ a, email: emails[i]! })));
  const t0 = performance.now();
  const tokens = await pool(slots, 16, ({ a, email }) => signIn(stack, email, a.address));
  const t1 = performance.now();
  await pool(slots, 64, async ({ a }, i) => {
    a.devices.push(await Device.open(stack, a, tokens[i]!, transport));
  });
  setup.signInMs += t1 - t0;
  setup.joinMs += performance.now() - t1;
  return accounts;
}

/** Where row 10c's set-up time went (ms, summed over every makeAccounts). */
export const setup = { signInMs: 0, joinMs: 0 };

async function signIn(stack: StackAddress, email: string, address: string): Promise<string> {
  const r = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!r.ok) throw new Error(`row 10c: sign-in ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

/** supabase-js's heartbeat interval (RealtimeClient's default, 25 s). */
const HEARTBEAT_MS = 25_000;

/** A join or leave unanswered this long fails the row (a hung stack must not hang the bench). */
const REPLY_TIMEOUT_MS = 20_000;

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

export class Device {
  private ref = 0;
  private joinRef: string | null = null;
  private topic: string | null = null;
  private readonly replies = new Map<string, (payload: { status: string; response: unknown }) => void>();
  /** change_seq → arrival (performance.now()) of rows no one waits for yet. */
  private readonly seen = new Map<number, number>();
  /** Broadcasts heard no one waited for yet, oldest first: each announces every number up to its own. */
  private readonly announced: { seq: number; at: number }[] = [];
  private readonly waiters = new Map<number, (at: number) => void>();
  closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  /** Frames that end or fault a channel (phx_error, phx_close, system), by event. */
  readonly faults = new Map<string, number>();

  private constructor(
    private readonly ws: WebSocket,
    readonly account: Account,
    readonly token: string,
  ) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onFrame(JSON.parse((data as Buffer).toString('utf8')) as Frame);
    });
    ws.on('close', () => {
      this.closed = true;
      clearInterval(this.heartbeat);
    });
    ws.on('error', () => undefined);
    // Phoenix's heartbeat, from the socket's opening: the server closes a socket that sent nothing for
    // 60 s (server.ts idleTimeoutMs), and setting up thousands of devices on a loaded machine takes
    // longer than that (a run lost 423 of 2,000 sockets while the rest were still signing in).
    this.heartbeat = setInterval(() => this.ws.send(JSON.stringify([null, String(++this.ref), 'phoenix', 'heartbeat', {}])), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  static async open(stack: StackAddress, account: Account, token: string, transport: Transport): Promise<Device> {
    const ws = new WebSocket(realtimeUrl(stack.url, stack.anonKey), { headers: { 'x-forwarded-for': account.address }, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const d = new Device(ws, account, token);
    await d.join(transport);
    return d;
  }

  private onFrame(f: Frame): void {
    const [, ref, , event, payload] = f;
    if (event === 'phx_reply' && ref !== null) {
      this.replies.get(ref)?.(payload as { status: string; response: unknown });
      this.replies.delete(ref);
      return;
    }
    if (event === 'phx_error' || event === 'phx_close' || event === 'system') {
      const key = event === 'system' ? `system ${String(payload.status)}: ${String(payload.message)}` : event;
      this.faults.set(key, (this.faults.get(key) ?? 0) + 1);
    }
    let seq: unknown;
    if (event === 'broadcast' && payload.event === 'changed') {
      const upTo = (payload.payload as { change_seq?: unknown }).change_seq;
      if (typeof upTo !== 'number') return;
      const at = performance.now();
      for (const [n, w] of this.waiters)
        if (n <= upTo) {
          this.waiters.delete(n);
          w(at);
        }
      this.announced.push({ seq: upTo, at });
      return;
    } else if (event === 'postgres_changes') {
      const data = payload.data as { table?: string; type?: string; record?: { change_seq?: unknown } };
      if (data.table === 'messages' && data.type === 'INSERT') seq = data.record?.change_seq;
    }
    if (typeof seq !== 'number') return;
    const at = performance.now();
    const w = this.waiters.get(seq);
    if (w) {
      this.waiters.delete(seq);
      w(at);
    } else this.seen.set(seq, at);
  }

  private push(topic: string, event: string, payload: unknown, joinRef: string | null): Promise<{ status: string; response: unknown }> {
    const ref = String(++this.ref);
    const reply = new Promise<{ status: string; response: unknown }>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.replies.delete(ref);
        reject(new Error(`row 10c: no reply to ${event} on ${topic} within ${REPLY_TIMEOUT_MS} ms${this.closed ? ' (socket closed)' : ''}`));
      }, REPLY_TIMEOUT_MS);
      this.replies.set(ref, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]));
    return reply;
  }

  /** Leaves the joined channel, if any, and joins `transport`'s; throws when the join is refused. */
  async join(transport: Transport): Promise<void> {
    if (this.topic) await this.push(this.topic, 'phx_leave', {}, this.joinRef);
    this.seen.clear();
    this.announced.length = 0;
    const a = this.account;
    const filter = `account_id=eq.${a.accountId}`;
    const config =
      transport === 'broadcast'
        ? { broadcast: { ack: false, self: false }, presence: { key: '', enabled: false }, postgres_changes: [], private: true }
        : {
            broadcast: { ack: false, self: false },
            presence: { key: '', enabled: false },
            postgres_changes: ['messages', 'conversations', 'read_cursors'].map((table) => ({ event: '*', schema: 'public', table, filter })),
            private: false,
          };
    this.topic = transport === 'broadcast' ? `realtime:account:${a.accountId}` : `realtime:pc-${randomUUID()}`;
    this.joinRef = String(this.ref + 1);
    const r = await this.push(this.topic, 'phx_join', { config, access_token: this.token }, this.joinRef);
    if (r.status !== 'ok') throw new Error(`row 10c: ${transport} join refused: ${JSON.stringify(r.response)}`);
  }

  /** When the row numbered `seq` reached this device, or Infinity when it did not within `timeoutMs`. */
  arrival(seq: number, timeoutMs: number): Promise<number> {
    const at = this.seen.get(seq);
    if (at !== undefined) {
      this.seen.delete(seq);
      return Promise.resolve(at);
    }
    const heard = this.announced.find((b) => b.seq >= seq);
    if (heard) {
      // Broadcasts below this number announce no later row: they are done with.
      while (this.announced.length > 0 && this.announced[0]!.seq < seq) this.announced.shift();
      return Promise.resolve(heard.at);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(seq);
        resolve(Infinity);
      }, timeoutMs);
      this.waiters.set(seq, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.ws.terminate();
  }
}

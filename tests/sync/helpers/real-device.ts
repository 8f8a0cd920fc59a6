// A device for the R9 row tests against a real stack: unmodified supabase-js signed in through the
// auth server (real tokens), a network that can be cut, its own fake-indexeddb kept across engine
// restarts (a reload), and an optional clock (skewed or stepped) that reaches the engine. Its engine
// starts with the kit's options (simEngineOptions, sync/testing/device.ts), realtime off.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type pg from 'pg';
import { expect } from 'vitest';
import { systemClock, type Clock } from '../../../sync/model/clock.ts';
import { createSyncEngine, type SyncEngine, type SyncEngineOptions } from '../../../sync/engine.ts';
import { manualNetwork, type ManualNetwork } from '../../../sync/session/network.ts';
import type { TestStack } from '../../helpers/stack.ts';
import { uniqueEmail } from '../../helpers/clients.ts';
import { simEngineOptions } from '../../../sync/testing/index.ts';

export const PASSWORD = 'heslo12345';

export interface RealUser {
  id: string;
  email: string;
  accountId: string;
}

/** A confirmed user made through the auth server's admin API (the signup trigger gives an account). */
export async function newUser(stack: TestStack, db: pg.Pool, tag = 'r9'): Promise<RealUser> {
  const email = uniqueEmail(tag);
  const r = await fetch(`${stack.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { apikey: stack.keys.serviceRoleKey, authorization: `Bearer ${stack.keys.serviceRoleKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
  });
  const user = (await r.json()) as { id: string };
  const row = await db.query<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [user.id]);
  return { id: user.id, email, accountId: row.rows[0]!.account_id };
}

/**
 * A clock whose wall time is `skewMs` off the real one (changeable: a user correcting the clock). Its
 * true time comes from performance (not Date), so a test may fake Date as the device's clock too.
 */
export class SkewedClock implements Clock {
  constructor(public skewMs = 0) {}
  now = () => performance.timeOrigin + performance.now() + this.skewMs;
  monotonic = () => performance.now();
  setTimeout = (fn: () => void, ms: number) => setTimeout(fn, ms);
  clearTimeout = (id: ReturnType<typeof setTimeout>) => clearTimeout(id);
}

export class Device {
  offline = false;
  readonly rest: string[] = [];
  readonly network: ManualNetwork = manualNetwork(true);
  readonly idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  readonly supabase: SupabaseClient;
  engine: SyncEngine | null = null;
  /**
   * Holds replies: a request it picks reaches the server and is answered, and the answer reaches the
   * caller only once the returned promise settles (a reply slow on its way back). null: let it through.
   */
  hold: ((url: string) => Promise<void> | null) | null = null;
  /** Refuses requests: one it picks never reaches the server and fails as a lost connection does. null: none. */
  refuse: ((url: string) => boolean) | null = null;

  constructor(
    stack: TestStack,
    readonly clock: Clock = systemClock,
  ) {
    this.supabase = createClient(stack.url, stack.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: this.fetch },
    });
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (this.offline) throw new TypeError('fetch failed (offline)');
    const url = input instanceof Request ? input.url : String(input);
    if (this.refuse?.(url)) throw new TypeError('fetch failed (refused)');
    if (url.includes('/rest/v1/')) this.rest.push(url);
    const res = await fetch(input, init);
    await this.hold?.(url);
    return res;
  };

  async signIn(email: string): Promise<void> {
    const { error } = await this.supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
  }

  setOnline(online: boolean): void {
    this.offline = !online;
    this.network.set(online);
  }

  /** Starts an engine on this device's database (again, after stop: a reload). */
  async start(userId: string, extra: Partial<SyncEngineOptions> = {}): Promise<SyncEngine> {
    const engine = createSyncEngine(
      simEngineOptions({ userId, supabase: this.supabase, idb: this.idb, network: this.network, clock: this.clock }, { realtime: false, engine: extra }),
    );
    this.engine = engine;
    await engine.start();
    return engine;
  }

  async stop(): Promise<void> {
    await this.engine?.stop();
    this.engine = null;
  }
}

/** The server's messages of a conversation (id, text), in the server's order. */
export async function serverMessages(db: pg.Pool, conversationId: string): Promise<{ id: string; text: string }[]> {
  const r = await db.query<{ id: string; text: string }>('select id, text from public.messages where conversation_id = $1 order by created_at, id', [conversationId]);
  return r.rows;
}

/** The device's stored messages of a conversation (id, text) that the server confirmed, in local order. */
export async function localMessages(engine: SyncEngine, conversationId: string): Promise<{ id: string; text: string }[]> {
  const rows = await engine.db.messages.where('[conversationId+orderKey]').between([conversationId, ''], [conversationId, '\uffff']).toArray();
  return rows.filter((m) => m.serverId !== null).map((m) => ({ id: m.serverId!, text: m.text }));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

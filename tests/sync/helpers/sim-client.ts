// A simulated browser of one user: its own IndexedDB (fake-indexeddb factory, kept across restarts),
// its own fault-injecting network, and an engine that can be stopped and started again like a page
// reload. Timings are the spec's scaled down so a fuzz seed takes about a second.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Clock } from '../../../sync/clock.ts';
import { createSyncEngine, type SyncEngine } from '../../../sync/engine.ts';
import { manualNetwork, type ManualNetwork } from '../../../sync/network.ts';
import { FaultyNet, type FaultRates } from './faulty-net.ts';
import type { Rng } from './rng.ts';
import type { TestUser } from './server-db.ts';

export const SIM_TIMINGS = {
  tickMs: 250,
  fetchGapMs: 40,
  queuedRefetchMs: 5,
  pollIdleMs: 200,
  pollStartMs: 100,
  pollMaxMs: 800,
  healthIdleMs: 2000,
  resubscribeStartMs: 50,
  resubscribeMaxMs: 800,
  statusDebounceMs: 50,
  retryStartMs: 20,
  retryMaxMs: 300,
  requestTimeoutMs: 3000,
  pushLanes: 4,
};

export interface StackInfo {
  url: string;
  anonKey: string;
}

export class SimClient {
  readonly idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  readonly net: FaultyNet;
  readonly network: ManualNetwork = manualNetwork(true);
  engine: SyncEngine | null = null;
  supabase: SupabaseClient | null = null;

  constructor(
    readonly stack: StackInfo,
    readonly user: TestUser,
    readonly accountId: string,
    rand: Rng,
    rates?: FaultRates,
  ) {
    this.net = new FaultyNet(rand, rates);
  }

  private client(): SupabaseClient {
    const token = this.user.token;
    const client: SupabaseClient = createClient(this.stack.url, this.stack.anonKey, {
      accessToken: async () => token,
      global: { fetch: this.net.fetch },
      realtime: { transport: this.net.socketClass() as never, reconnectAfterMs: () => 60, timeout: 3000, heartbeatIntervalMs: 5000 },
    });
    return client;
  }

  async start(opts: { useFunctions?: boolean; realtime?: boolean; timings?: Partial<typeof SIM_TIMINGS>; clock?: Clock } = {}): Promise<SyncEngine> {
    this.supabase = this.client();
    const e = createSyncEngine({
      userId: this.user.id,
      accountId: this.accountId,
      supabase: this.supabase,
      idb: this.idb,
      network: this.network,
      timings: { ...SIM_TIMINGS, ...opts.timings },
      locks: null,
      channels: null,
      useFunctions: opts.useFunctions ?? false,
      ensureFirstConversation: false,
      ...(opts.clock ? { clock: opts.clock } : {}),
      ...(opts.realtime === false ? { transports: { realtime: null } } : {}),
    });
    this.engine = e;
    await e.start();
    return e;
  }

  async stop(abrupt = false): Promise<void> {
    const e = this.engine;
    const s = this.supabase;
    this.engine = null;
    this.supabase = null;
    if (e) await e.stop({ abrupt });
    // Like a closed page: the socket just goes (no phx_leave round trips to wait for).
    if (s) void s.realtime.disconnect();
  }

  async restart(abrupt: boolean): Promise<void> {
    await this.stop(abrupt);
    await this.start();
  }

  setOnline(online: boolean): void {
    this.net.mode = online ? 'perfect' : 'offline';
    if (!online) this.net.cutSockets();
    this.network.set(online);
  }
}

// A simulated phone or browser of one user: its own IndexedDB (a fake-indexeddb factory kept across
// restarts), its own fault-injecting network and online/offline switch, its own clock, and an engine
// that can be stopped and started again like a page reload. Signed in either with a fixed access
// token (the `accessToken` option: no auth client) or through the real auth server with a password,
// the session then living in the device's storage across reloads (as localStorage does) and its
// expiry judged by the device's clock. Timings are the spec's scaled down so a fuzz seed takes about
// a second.
import { createClient, type SupabaseClient, type SupportedStorage } from '@supabase/supabase-js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createSyncEngine, type SyncEngine } from '../engine.ts';
import type { SyncEngineOptions } from '../engine-deps.ts';
import type { Timings } from '../model/constants.ts';
import { manualNetwork, type ManualNetwork } from '../session/network.ts';
import { createTestClock, type TestClock } from './clock.ts';
import { FaultyNet, type FaultRates } from './faulty-net.ts';
import { rng, type Rng } from './rng.ts';
import { channelHub, fakeLocks } from './web-locks.ts';

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
} satisfies Partial<Timings>;

export interface StackInfo {
  url: string;
  anonKey: string;
}

/** Who uses the device: a fixed access token, or an e-mail and password signed in through auth. */
export interface DeviceUser {
  id: string;
  token?: string;
  email?: string;
  password?: string;
}

export interface DeviceOptions {
  /** Seeded choices of the faulty network (default: seed 1). */
  rand?: Rng;
  rates?: FaultRates;
  clock?: TestClock;
  /** The account the engine acts in (own, or impersonated); looked up by the engine when null. */
  accountId?: string | null;
  /**
   * The device's own Web Locks and tab channel (one browser profile, web-locks.ts), kept across
   * restarts: its engine leads and is solo, so sends take R1.12's fast path. Default: none.
   */
  webLocks?: boolean;
  /**
   * Another tab of that device's browser profile: its IndexedDB, Web Locks and tab channel (the
   * device must have `webLocks`). The tabs' engines elect one leader, as a browser's tabs do; stop
   * the leader abruptly to kill its tab.
   */
  tabOf?: TestDevice;
  /**
   * auth-js's own refresh ticker, as the app ships it (src/supabase.ts: `autoRefreshToken: true`,
   * the default here); false for a client that refreshes only when asked.
   */
  autoRefreshToken?: boolean;
}

export interface StartOptions {
  useFunctions?: boolean;
  realtime?: boolean;
  timings?: Partial<Timings>;
  /** More engine options, over the device's defaults. */
  engine?: Partial<SyncEngineOptions>;
}

/**
 * The engine options every simulated device uses: its own IndexedDB, network signal and clock, the
 * spec's timings scaled down (`SIM_TIMINGS`), no Web Locks, no tab channel, no markers, no Background
 * Sync, RPCs rather than functions, no first conversation; `opts` over them. TestDevice and the R9
 * row tests' device (tests/sync/helpers/real-device.ts) both start their engines with it.
 */
export function simEngineOptions(
  base: Pick<SyncEngineOptions, 'userId' | 'accountId' | 'supabase' | 'idb' | 'network' | 'clock'>,
  opts: StartOptions = {},
): SyncEngineOptions {
  return {
    ...base,
    timings: { ...SIM_TIMINGS, ...opts.timings },
    locks: null,
    channels: null,
    markers: null,
    backgroundSync: null,
    onRestored: null,
    useFunctions: opts.useFunctions ?? false,
    ensureFirstConversation: false,
    ...(opts.realtime === false ? { transports: { realtime: null } } : {}),
    ...opts.engine,
  };
}

export class TestDevice {
  idb = { indexedDB: new IDBFactory(), IDBKeyRange };
  readonly net: FaultyNet;
  readonly network: ManualNetwork = manualNetwork(true);
  readonly clock: TestClock;
  accountId: string | null;
  engine: SyncEngine | null = null;
  supabase: SupabaseClient | null = null;
  private readonly autoRefreshToken: boolean;
  /** The auth session's storage, kept across restarts like a browser's localStorage. */
  private readonly authStore: SupportedStorage;

  constructor(
    readonly stack: StackInfo,
    public user: DeviceUser,
    opts: DeviceOptions = {},
  ) {
    this.net = new FaultyNet(opts.rand ?? rng(1), opts.rates);
    this.clock = opts.clock ?? createTestClock();
    this.accountId = opts.accountId ?? null;
    this.authStore = this.clock.authStorage();
    this.autoRefreshToken = opts.autoRefreshToken ?? true;
    if (opts.webLocks) this.profile = { locks: fakeLocks(), channels: channelHub() };
    if (opts.tabOf) {
      if (!opts.tabOf.profile) throw new Error('tabOf needs a device with webLocks');
      this.idb = opts.tabOf.idb;
      this.profile = opts.tabOf.profile;
    }
  }

  /** The browser profile's Web Locks and tab channel (webLocks, or shared with `tabOf`). */
  readonly profile: Pick<SyncEngineOptions, 'locks' | 'channels'> | null = null;

  /** Every client made on this device: closed with it (their auth tickers stopped). */
  private readonly clients = new Set<SupabaseClient>();
  /** Each client's page closing: its requests on the wire end and no new one leaves. */
  private readonly closers = new WeakMap<SupabaseClient, () => void>();

  /** A supabase-js client over this device's network (and its auth session, when not by token); closed by `stop()`. */
  client(): SupabaseClient {
    const c = this.newClient();
    this.clients.add(c);
    return c;
  }

  private newClient(): SupabaseClient {
    const token = this.user.token;
    const realtime = { transport: this.net.socketClass() as never, reconnectAfterMs: () => 60, timeout: 3000, heartbeatIntervalMs: 5000 };
    // A closed page's requests end with it, and it sends no more: a fetch failure, which auth-js
    // retries and never answers by removing the stored session (its `_callRefreshToken` removes it only
    // for an answer that is not a retryable fetch error), so a closed client cannot touch the session
    // the device's next client reads, and cannot rotate its refresh token.
    // Each request's own controller, kept only while it is on the wire (not AbortSignal.any on one
    // long-lived signal: Node 20 keeps every signal derived from it until it goes, ~2 KB and 25 µs a
    // request, measured 200k in 5 s and 409 MB).
    let closed = false;
    const onWire = new Set<AbortController>();
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      if (closed) throw new TypeError('fetch failed (the page was closed)');
      const own = new AbortController();
      const outer = init?.signal;
      const forward = () => own.abort(outer?.reason);
      if (outer?.aborted) forward();
      else outer?.addEventListener('abort', forward, { once: true });
      onWire.add(own);
      try {
        return await this.net.fetch(input, { ...init, signal: own.signal });
      } finally {
        onWire.delete(own);
        outer?.removeEventListener('abort', forward);
      }
    };
    const c =
      token !== undefined
        ? createClient(this.stack.url, this.stack.anonKey, { accessToken: async () => token, global: { fetch }, realtime })
        : createClient(this.stack.url, this.stack.anonKey, {
            auth: { storage: this.authStore, persistSession: true, autoRefreshToken: this.autoRefreshToken, detectSessionInUrl: false, storageKey: `device-${this.user.id}` },
            global: { fetch },
            realtime,
          });
    this.closers.set(c, () => {
      closed = true;
      for (const own of onWire) own.abort(new TypeError('fetch failed (the page was closed)'));
    });
    return c;
  }

  /** Signs in through the auth server (password users); the session stays across restarts. */
  async signIn(email = this.user.email, password = this.user.password): Promise<void> {
    if (!email || !password) throw new Error('signIn needs an e-mail and a password');
    const supabase = this.supabase ?? this.client();
    const { error } = await supabase.auth.signInWithPassword({ email, password });
    if (error) throw new Error(`sign-in failed: ${error.message}`);
    if (!this.supabase) {
      this.clients.delete(supabase);
      await this.close(supabase);
    }
  }

  async start(opts: StartOptions = {}): Promise<SyncEngine> {
    this.supabase = this.client();
    const e = createSyncEngine(
      simEngineOptions(
        { userId: this.user.id, accountId: this.accountId, supabase: this.supabase, idb: this.idb, network: this.network, clock: this.clock },
        this.profile ? { ...opts, engine: { ...this.profile, ...opts.engine } } : opts,
      ),
    );
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
    if (s) await this.close(s);
    const others = [...this.clients].filter((c) => c !== s);
    this.clients.clear();
    await Promise.all(others.map((c) => this.close(c)));
  }

  private close(s: SupabaseClient): Promise<void> {
    this.closers.get(s)?.();
    return closeClient(s);
  }

  async restart(abrupt: boolean, opts?: StartOptions): Promise<SyncEngine> {
    await this.stop(abrupt);
    return this.start(opts);
  }

  /** The device's own online/offline switch: the network and what the engine is told agree. */
  setOnline(online: boolean): void {
    this.net.mode = online ? 'perfect' : 'offline';
    if (!online) this.net.cutSockets();
    this.network.set(online);
  }
}

/**
 * Like a closed page: the socket just goes (no phx_leave round trips to wait for), and auth-js's
 * refresh ticker stops (a closed page's ticker refreshes nothing: left running, it would rotate the
 * refresh token under the device's next client, which shares its storage).
 */
async function closeClient(s: SupabaseClient): Promise<void> {
  void s.realtime.disconnect();
  try {
    // auth-js starts its ticker at the end of its initialisation, and the engine's stop gives it back
    // (R9.16: restarted when it had paused it offline); both starts complete within microtasks of
    // that, so this stop, a macrotask later, is the last word.
    const stopTicker = async (): Promise<void> => {
      await new Promise((r) => setTimeout(r, 0));
      await s.auth.stopAutoRefresh();
    };
    const init = s.auth.initialize();
    const initialised = await Promise.race([init.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 0))]);
    if (initialised) return await stopTicker();
    // Still initialising: a client started offline with an expired token retries its refresh
    // 200 ms × 2ⁿ for up to 30 s (auth-js `_recoverAndRefresh` → `_refreshAccessToken`), and waiting
    // for it held a restart that long (the hostile fuzz's seeds 2 and 3: 2–28 s). A closed page does
    // not wait: its requests already fail (close), and the ticker its initialisation starts at the
    // end is stopped then.
    void init.then(stopTicker).catch(() => undefined);
  } catch {
    // a client made with the `accessToken` option has no auth
  }
}

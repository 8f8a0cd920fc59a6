// The engine's options and their defaults.
import type { SupabaseClient } from '@supabase/supabase-js';
import { supabaseAuthGate, type AuthGate, type GateClock } from './session/auth.ts';
import { systemClock, type Clock } from './model/clock.ts';
import { SPEC_TIMINGS, type Timings } from './model/constants.ts';
import { defaultBackgroundSync, type BackgroundSyncRequest } from './background/register.ts';
import { defaultMarkerStore, defaultRestoreReporter, type KeyValueStore, type RestoreReport } from './background/restore.ts';
import type { IdbEnvironment } from './db/open.ts';
import type { SyncDb } from './db/schema.ts';
import { randomId, type IdSource } from './model/ids.ts';
import { defaultChannelFactory, defaultLocks, type ChannelFactory, type LockManagerLike } from './session/leader.ts';
import { browserNetwork, type NetworkSource } from './session/network.ts';
import type { ServerApi } from './server/api.ts';
import { createSupabaseServerApi } from './server/supabase-api.ts';
import { createSupabaseRealtimeTransport } from './transports/supabase-realtime.ts';
import type { Transport } from './transports/transport.ts';
import type { RemoteTable } from './model/remote-types.ts';
import { createSupabaseRelay, type Relay } from './transports/relay.ts';
import type { StorageEstimate } from './attachments/limits.ts';
import type { ImagePreparer } from './attachments/prepare.ts';
import { defaultStorageEstimate, supabaseUploadTarget } from './attachments/target.ts';
import type { UploadTarget } from './attachments/uploader.ts';

export interface TransportFactories {
  /** Realtime for the account, one per subscription attempt; null for none. Default: Supabase Realtime. */
  realtime?: ((accountId: string) => Transport) | null;
  /** Auxiliary transports (the Chatwoot cable), created once per leadership. */
  auxiliary?: () => Transport[];
  /**
   * R6.8: the relay to the user's other devices, created once per leadership. Default: Supabase
   * Realtime's `user:<id>` topic when there is a supabase client and realtime is not turned off; null for none.
   */
  relay?: (() => Relay) | null;
}

export interface SyncEngineOptions {
  userId: string;
  /** The signed-in supabase-js client; gives the default server API and realtime. */
  supabase?: SupabaseClient;
  server?: ServerApi;
  /** The account acted in (own, or impersonated by a super admin); looked up when absent. */
  accountId?: string | null;
  clock?: Clock;
  timings?: Partial<Timings>;
  idb?: IdbEnvironment;
  network?: NetworkSource;
  newId?: IdSource;
  transports?: TransportFactories;
  /** null: no Web Locks (every engine leads). Default: navigator.locks when present. */
  locks?: LockManagerLike | null;
  /** null: no tab channel. Default: BroadcastChannel when present. */
  channels?: ChannelFactory | null;
  /** Create the first conversation when the account has none after the first pull (default true). */
  ensureFirstConversation?: boolean;
  /** Call the edge functions rather than their RPCs (default true). */
  useFunctions?: boolean;
  pullLimit?: number;
  /** Asks the browser for a Background Sync when writes wait for the network. Default: the service worker's SyncManager when present; null for none. */
  backgroundSync?: BackgroundSyncRequest | null;
  /** Where the eviction marker and the unsent mirror live (background/restore.ts). Default: localStorage when present; null for none. */
  markers?: KeyValueStore | null;
  /** Told once the evicted database is pulled again. Default: a `poradna:restored` window event. */
  onRestored?: ((r: RestoreReport) => void) | null;
  /**
   * This user's database, already opened by the screens so they could paint before the engine's code
   * had loaded; the engine takes it over (and closes it on stop). With it, `databaseExisted` must say
   * whether the database existed before that first open (eviction detection; default true).
   */
  db?: SyncDb;
  databaseExisted?: boolean;
  /**
   * R9.1/R9.2: the session gate asked before every pull and push. Default: over `supabase.auth`
   * (none when the client was made with the `accessToken` option); null for none.
   */
  auth?: AuthGate | null;
  /** R12.4: where attachments are uploaded (TUS). Default: the `supabase` client's storage with its session; null: none (they wait). */
  uploads?: UploadTarget | null;
  /** R12.2: the device's free space. Default: navigator.storage.estimate when present; null: not checked. */
  storageEstimate?: StorageEstimate | null;
  /** R12.13: prepares picked photos (canvas work, the app's). Default none: such sends wait for an engine that has it. */
  prepareImage?: ImagePreparer | null;
}

export interface ResolvedOptions {
  userId: string;
  server: ServerApi;
  accountId: string | null;
  clock: Clock;
  timings: Timings;
  idb: IdbEnvironment;
  network: NetworkSource;
  newId: IdSource;
  realtime: ((accountId: string) => Transport) | null;
  auxiliary: () => Transport[];
  relay: (() => Relay) | null;
  locks: LockManagerLike | null;
  channels: ChannelFactory | null;
  ensureFirst: boolean;
  pullLimit: number | undefined;
  backgroundSync: BackgroundSyncRequest | null;
  markers: KeyValueStore | null;
  onRestored: ((r: RestoreReport) => void) | null;
  auth: AuthGate | null;
  uploads: UploadTarget | null;
  storageEstimate: StorageEstimate | null;
  prepareImage: ImagePreparer | null;
}

let instances = 0;

/**
 * R18.6: the tables whose rows a device still takes from postgres_changes when the relay's user
 * channel carries the read cursors' broadcast: messages (the open chat paints a row before any pull,
 * R6.5/R6.6; R13's streamed reply grows by row versions) and conversations (each message changes its
 * conversation in the same transaction: without its row event every arriving message would cost a pull).
 */
const ROW_TABLES_BESIDE_USER_TOPIC: readonly RemoteTable[] = ['conversations', 'messages'];

/** `gateClock`: the server's clock as the engine learns it, for the default session gate (R9.12). */
export function resolveOptions(o: SyncEngineOptions, gateClock: GateClock = {}): ResolvedOptions {
  const supabase = o.supabase;
  const timings = { ...SPEC_TIMINGS, ...o.timings };
  const apiOptions = { ...(o.useFunctions === undefined ? {} : { useFunctions: o.useFunctions }), timeoutMs: timings.requestTimeoutMs };
  const server = o.server ?? (supabase ? createSupabaseServerApi(supabase, apiOptions) : null);
  if (!server) throw new Error('createSyncEngine needs `supabase` or `server`');
  const instance = ++instances;
  const auth = o.auth === undefined ? (supabase ? supabaseAuthGate(supabase, o.userId, gateClock, timings.requestTimeoutMs) : null) : o.auth;
  // R9.19: each join waits for the session gate, so a channel never joins with an expired token.
  const fresh = auth ? { freshSession: () => auth.ensure() } : {};
  // No realtime, no relay: it rides the same socket.
  const relay =
    o.transports?.relay !== undefined
      ? o.transports.relay
      : supabase && o.transports?.realtime !== null
        ? () => createSupabaseRelay({ supabase, userId: o.userId })
        : null;
  // R18.4/R18.6: the private account channel is on by default; read cursors drop postgres_changes
  // only where this relay's `user:<id>` channel brings their broadcast (R18.7).
  const rowTables = o.transports?.relay === undefined && relay ? ROW_TABLES_BESIDE_USER_TOPIC : undefined;
  const defaultRealtime = supabase
    ? (accountId: string) =>
        createSupabaseRealtimeTransport({ supabase, accountId, topic: `sync:${accountId}:${instance}`, feedBroadcast: true, ...(rowTables ? { rowTables } : {}), ...fresh })
    : null;
  return {
    userId: o.userId,
    server,
    accountId: o.accountId ?? null,
    clock: o.clock ?? systemClock,
    timings,
    idb: o.idb ?? {},
    network: o.network ?? browserNetwork(),
    newId: o.newId ?? randomId,
    realtime: o.transports?.realtime === undefined ? defaultRealtime : o.transports.realtime,
    auxiliary: o.transports?.auxiliary ?? (() => []),
    relay,
    locks: o.locks === undefined ? defaultLocks() : o.locks,
    channels: o.channels === undefined ? defaultChannelFactory() : o.channels,
    ensureFirst: o.ensureFirstConversation ?? true,
    pullLimit: o.pullLimit,
    backgroundSync: o.backgroundSync === undefined ? defaultBackgroundSync() : o.backgroundSync,
    markers: o.markers === undefined ? defaultMarkerStore() : o.markers,
    onRestored: o.onRestored === undefined ? defaultRestoreReporter() : o.onRestored,
    auth,
    uploads: o.uploads === undefined ? (supabase ? supabaseUploadTarget(supabase) : null) : o.uploads,
    storageEstimate: o.storageEstimate === undefined ? defaultStorageEstimate() : o.storageEstimate,
    prepareImage: o.prepareImage ?? null,
  };
}

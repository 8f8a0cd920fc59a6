// createSyncEngine: the one entry point of sync/. It owns the user's database, binds the commands,
// runs the machine while this tab leads, and publishes the debounced status.
import { createActor, type Actor } from 'xstate';
import { readFeed, sweepExpiredCopies } from './receive/apply.ts';
import { scopeToAccount } from './session/account-scope.ts';
import { feedGeneration } from './session/feed-generation.ts';
import { reportingUnauthorized } from './session/auth.ts';
import { createSessionGate } from './session/gate.ts';
import type { CommandContext } from './commands/context.ts';
import { pruneResults } from './commands/results.ts';
import { foldDraftsAhead } from './commands/draft-ahead.ts';
import { ensureFirstConversation } from './commands/start-conversation.ts';
import { forgetDatabase, markDatabase, mirrorUnsent, requeueUnsent, wasEvicted, type RestoreReport } from './background/restore.ts';
import { leaderLockName } from './background/tag.ts';
import { monotonicNow, within, type TimerId } from './model/clock.ts';
import { dexieOptions, userDbExists } from './db/open.ts';
import { dbNameFor, SyncDb } from './db/schema.ts';
import { openOrRecreate, StorageUnavailableError, unlessStorageFailure } from './db/storage-health.ts';
import { deleteSearchDb } from './search/drop.ts';
import { resolveOptions, type SyncEngineOptions } from './engine-deps.ts';
import { createPublications } from './receive/published.ts';
import { rowsWithinGeneration } from './receive/rows-across-resets.ts';
import { linkRelay, type RelayLink } from './receive/relay-link.ts';
import type { Relay } from './transports/relay.ts';
import { electLeader, openTabChannel, type Leadership, type TabChannel } from './session/leader.ts';
import { syncMachine, type MachineDeps, type SyncEvent } from './machine.ts';
import { pullFeed, pullReference, type PullStep } from './receive/pull.ts';
import { PullPacer } from './receive/pace.ts';
import { backlogTracker } from './receive/backlog.ts';
import { createSender } from './send/sender.ts';
import { RetrySchedule } from './send/outbox.ts';
import { installServerNow, ServerOffset, withServerClock } from './session/server-time.ts';
import { createStatusStore, rawStatus, storageStatus } from './status.ts';
import { createPollingTransport } from './transports/polling.ts';
import { downTransport } from './transports/unavailable.ts';
import type { SyncEngine } from './engine-api.ts';
import { bindCommands } from './engine-commands.ts';
import { createUploader, type Uploader, type UploadProgress } from './attachments/uploader.ts';

export type { SyncEngine } from './engine-api.ts';
export type { SyncEngineOptions } from './engine-deps.ts';
export type { Arriving } from './receive/published.ts';

const REFERENCE_MAX_AGE_MS = 5 * 60_000;
/** R9.11: a learnt offset is stored when it moved at least this much (no write per request). */
const OFFSET_STORE_STEP_MS = 250;
const RESULT_MAX_AGE_MS = 24 * 3600_000;
/**
 * R9.13: how long stop() waits for the work in flight to end before it closes the database anyway:
 * stop() returns within 2 s whatever hangs. What it leaves is safe to leave: a request on the wire is
 * pushed again later and the server answers a repeat with the stored row (R1.5); a write cut by the
 * close did not commit, so the outbox still holds what it held.
 */
const STOP_GRACE_MS = 1500;

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  /** R9.11: the server's clock as learnt from replies; stored so a restart offline still knows it. */
  const serverOffset = new ServerOffset();
  // R9.12: the default session gate judges token expiry by the server's clock too.
  const o = resolveOptions(options, { serverNow: () => serverTimeNow(), monotonic: () => mono() });
  const { clock, timings, userId } = o;
  let storedOffsetMs: number | null = null;
  const gate = o.auth;
  const reported = gate?.unauthorized ? reportingUnauthorized(o.server, () => gate.unauthorized?.()) : o.server;
  const server = withServerClock(reported, clock, (sample) => {
    if (!serverOffset.observe(sample) || stopped) return;
    if (storedOffsetMs !== null && Math.abs(serverOffset.ms - storedOffsetMs) < OFFSET_STORE_STEP_MS) return;
    storedOffsetMs = serverOffset.ms;
    void track(db.meta.put({ key: 'clock', offsetMs: storedOffsetMs })).catch(() => undefined);
  });
  const serverTimeNow = () => clock.now() + serverOffset.ms;
  const now = () => clock.now();
  /** R9.6: waits and retries are measured on this, never on the wall clock. */
  const mono = () => monotonicNow(clock);
  const retrySchedule = new RetrySchedule();
  const db = options.db ?? new SyncDb(dbNameFor(userId), dexieOptions(o.idb));
  const status = createStatusStore(clock, timings.statusDebounceMs, { connection: 'online', error: null, loaded: false, leader: false });
  let accountId = o.accountId;
  let actor: Actor<typeof syncMachine> | null = null;
  let leadership: Leadership | null = null;
  let channel: TabChannel | null = null;
  const cleanups: (() => void)[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let referenceAt = -Infinity;
  /** R5.8–R5.11: page sizes follow the link for this engine's life; a backlog's progress goes to the status, its head first. */
  const pacer = new PullPacer({ stallMs: timings.requestTimeoutMs, maxRows: o.pullLimit });
  const trackBacklog = backlogTracker((progress) => status.patch({ progress }));
  const onPage = (step: PullStep) => {
    trackBacklog(step);
    actor?.send({ type: 'PULL_PROGRESS' });
  };
  const head = { fetched: false };
  let ensuredFirst = false;
  let stopped = false;
  let restoreReport: RestoreReport | null = null;
  let mirrorChain: Promise<void> = Promise.resolve();
  const published = createPublications({
    db,
    userId,
    accountId: () => accountId,
    now,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (h) => clock.clearTimeout(h as TimerId),
  });
  /** R6.8: the relay to the user's other devices, and this engine's link to it, while this engine leads. */
  let relay: Relay | null = null;
  let relayLink: RelayLink | null = null;
  /** R12: the attachment uploads, while this engine leads; progress listeners outlive leaderships. */
  let uploader: Uploader | null = null;
  const uploadListeners = new Set<(p: UploadProgress) => void>();

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.then(
      () => inFlight.delete(p),
      () => inFlight.delete(p),
    );
    return p;
  };
  const send = (e: SyncEvent) => {
    if (actor && actor.getSnapshot().status === 'active') actor.send(e);
  };
  /** Keeps the localStorage mirror of unsent messages in step (serialised, so the last write is the newest). */
  const mirror = () => {
    const store = o.markers;
    if (!store || stopped) return;
    mirrorChain = mirrorChain.then(() => mirrorUnsent(db, store, userId)).catch(() => undefined);
  };
  /** Writes wait for the network: let the service worker deliver them even if this tab closes. */
  const wantBackgroundSync = () => o.backgroundSync?.();
  const notify = () => {
    uploader?.kick();
    if (actor) send({ type: 'FLUSH' });
    else channel?.post({ type: 'outbox' });
    if (!o.network.online()) wantBackgroundSync();
    mirror();
  };
  /** R9.1/R9.2/R9.13/R1.12 (session/gate.ts): asked before every pull and push. */
  const sessionGate = createSessionGate({
    auth: o.auth,
    clock,
    requestTimeoutMs: timings.requestTimeoutMs,
    online: () => o.network.online(),
    stopped: () => stopped,
    setNeedsSignIn: (needed) => setNeedsSignIn(needed),
  });
  const authorized = () => sessionGate.authorized();
  /** R1.12/R1.13 (send/sender.ts): the view of queued sends, the writers lock, the flush's push, the early request. */
  const sender = createSender({
    push: {
      db,
      server,
      userId,
      now,
      monotonic: mono,
      schedule: retrySchedule,
      timings,
      onPullNeeded: () => send({ type: 'REQUEST_PULL' }),
      onSendRefused: (correlationId) => relayLink?.refused(correlationId),
      lanes: timings.pushLanes,
      accountId: () => accountId,
    },
    /** R9.10/R9.14: names this engine's claims; another's count for nothing while it holds the leader's Web Lock. */
    claimer: { id: o.newId(), holdMs: timings.requestTimeoutMs + 5000, exclusive: () => o.locks !== null && (leadership?.isLeader() ?? false) },
    ready: () => (actor && !stopped && sessionGate.ok() && o.network.online() && !status.get().needsSignIn ? accountId : null),
    track,
    done: (sent) => {
      if (!sent) wantBackgroundSync(); // as a failed flush does: the retry may need the service worker
      notify();
    },
    dbName: dbNameFor(userId),
    locks: o.locks,
    channels: Boolean(o.channels),
    clock,
  });
  const { watch, writers } = sender;
  const ctx: CommandContext = { db, userId, accountId: () => accountId, now, newId: o.newId, notify, watch, writeGate: writers.gate, estimate: o.storageEstimate };
  /** R1.12: commands that may queue a send of a conversation not known before their write. */
  const opaqueSends = writers.opaque;

  async function ensureAccount(): Promise<string> {
    if (accountId === null) accountId = (await readFeed(db)).accountId ?? (await server.fetchAccountId(userId));
    await scopeToAccount(db, accountId);
    return accountId;
  }

  /** R9.2: the machine's status and the session's, together. */
  const publishConnection = () => {
    if (actor) status.setConnection(rawStatus(actor.getSnapshot().context, Boolean(status.get().needsSignIn)));
  };
  const setNeedsSignIn = (needed: boolean) => {
    if (Boolean(status.get().needsSignIn) === needed) return;
    status.patch({ needsSignIn: needed });
    publishConnection();
  };
  async function pull(): Promise<{ changed: boolean }> {
    if (!(await authorized())) return { changed: false };
    const account = await ensureAccount();
    const r = await pullFeed(db, server, userId, now, o.pullLimit, account, { pacer, monotonic: mono, onPage, head });
    status.patch({ loaded: true });
    if (mono() - referenceAt > REFERENCE_MAX_AGE_MS) {
      referenceAt = mono();
      await pullReference(db, server, account, now).catch(() => {
        referenceAt = -Infinity; // recorded in meta; tried again with the next pull
      });
    }
    if (o.ensureFirst && !ensuredFirst) {
      ensuredFirst = true;
      const [conversations, queued] = await Promise.all([db.conversations.count(), db.outbox.filter((e) => e.op.kind === 'ensure-first').count()]);
      if (conversations === 0 && queued === 0) await ensureFirstConversation(ctx);
    }
    return { changed: r.changed };
  }

  /** R9.2: signed out, the outbox waits untouched (nothing due: the sign-in event flushes it). */
  const flushWhenAuthorized = async () => {
    if (!(await authorized())) return { pushed: 0, nextDueAt: null };
    return sender.flush();
  };
  ctx.early = sender.early.inTransaction;
  ctx.fast = sender.early.fast;

  const deps: MachineDeps = {
    clock,
    timings,
    activity: { lastActivityAt: mono() },
    pull: () => track(pull()),
    flush: () =>
      track(
        flushWhenAuthorized().then((r) => {
          if (r.nextDueAt !== null) wantBackgroundSync();
          mirror();
          return r;
        }),
      ),
    // R9.18: a channel joined before a feed reset hands its rows over as pulls.
    createLink: o.realtime ? () => (accountId === null ? downTransport('account not known yet') : rowsWithinGeneration(o.realtime!(accountId), () => feedGeneration(db))) : null,
    createPolling: () => createPollingTransport(clock, timings, deps.activity),
    auxTransports: o.auxiliary,
    onEvent: (e) => track(published.onEvent(e)),
    onTick: (t) => {
      void track(
        (async () => {
          await sweepExpiredCopies(db, t);
          await db.typing.filter((x) => t - x.startedAt >= timings.typingTimeoutMs).delete();
          await pruneResults(db, t - RESULT_MAX_AGE_MS);
        })(),
      ).catch(() => undefined);
    },
  };

  function lead() {
    if (stopped) return;
    actor = createActor(syncMachine, {
      input: { deps, online: o.network.online() },
      clock: { setTimeout: (fn, ms: number) => clock.setTimeout(fn as () => void, ms), clearTimeout: (id) => clock.clearTimeout(id as ReturnType<typeof setTimeout>) },
    });
    actor.subscribe((snap) => {
      status.setConnection(rawStatus(snap.context, Boolean(status.get().needsSignIn)));
    });
    actor.start();
    // The rest of taking the lead runs in a task of its own (issue 40, Lighthouse's total blocking
    // time): the machine's start and the relay's channel with the uploader made one task of 14–25 ms
    // of thread time on /app/chats, 4× that on Lighthouse's phone. The gap is as if the lock had been
    // granted one task later: the actor already takes events, nothing is sent to it before this part
    // asks for the first pull and flush, and sends written meanwhile are not solo yet (R1.13) and go
    // to the flush. A stop in between ends it (the actor it started for is gone).
    const started = actor;
    clock.setTimeout(() => {
      if (!stopped && actor === started) leadOn();
    }, 0);
  }

  function leadOn() {
    relay = o.relay?.() ?? null;
    relayLink = relay ? linkRelay(relay, { published, accountId: () => accountId, serverNowMs: serverTimeNow, onFeed: (event) => send({ type: 'TRANSPORT_EVENT', event }) }) : null;
    ctx.relay = relayLink?.sent ?? null;
    status.patch({ leader: true });
    writers.lead();
    const target = o.uploads;
    uploader = target
      ? createUploader({ db, target, online: () => o.network.online(), accountId: () => accountId, now, clock, writeSend: opaqueSends, notify, track, onProgress: (p) => uploadListeners.forEach((fn) => fn(p)), prepare: o.prepareImage })
      : null;
    uploader?.kick();
    send({ type: 'REQUEST_PULL', reason: 'start' });
    send({ type: 'FLUSH' });
  }

  async function typingAfterSend(conversationId: string) {
    const t = await db.typing.get(conversationId);
    if (t) send({ type: 'TYPING_STARTED', conversationId, at: t.startedAt });
  }

  const commands = bindCommands({
    ctx,
    markers: o.markers,
    stopped: () => stopped,
    opaqueSends,
    wantBackgroundSync,
    abortUploads: (k) => uploader?.abortMessage(k) ?? Promise.resolve(),
    afterSend: typingAfterSend,
  });

  async function stop(opts: { abrupt?: boolean } = {}) {
    stopped = true;
    sessionGate.endWaits();
    for (const c of cleanups.splice(0)) c();
    writers.end();
    leadership?.release();
    leadership = null;
    actor?.stop();
    actor = null;
    uploader?.stop();
    uploader = null;
    uploadListeners.clear();
    ctx.relay = null;
    relayLink = null;
    published.dispose();
    // R9.13: the relay's close is not work in flight: leaving its channel and closing its socket touch
    // no database, and the socket's close is slow to report (realtime-js's phoenix polls for it after
    // 150, 300, 450 and 600 ms: 150 ms on loopback, 1.5 s when the close frame never comes), which
    // stop() used to wait on every time. It goes on by itself; a failure of it changes nothing.
    if (relay) void relay.close().catch(() => undefined);
    relay = null;
    status.dispose();
    if (!opts.abrupt) await within(clock, Promise.allSettled([...inFlight]), STOP_GRACE_MS, null);
    db.close();
    db.writeListener = null;
    writers.release(); // R1.13: only after the connection closed
    channel?.close();
    channel = null;
  }

  return {
    userId,
    db,
    commands,
    accountId: () => accountId,
    serverOffsetMs: () => serverOffset.ms,
    serverNow: serverTimeNow,
    status: () => status.get(),
    subscribeStatus: (fn) => status.subscribe(fn),
    status$: {
      subscribe: (fn) => {
        const off = status.subscribe(fn);
        return { unsubscribe: () => void off() };
      },
    },
    async start() {
      const markers = o.markers;
      let existed: boolean;
      try {
        // A probe the broken store refuses says nothing of its existence: the open below decides (R17.1).
        existed = options.db ? (options.databaseExisted ?? true) : markers ? await userDbExists(userId, o.idb).catch(unlessStorageFailure(true)) : true;
        // R17.1–R17.3: a store that fails to open is made anew (then restored as after an eviction).
        const opened = await openOrRecreate(db, {
          blocked: () => status.replace(storageStatus(status.get(), 'blocked')),
          unblocked: () => status.replace(storageStatus(status.get(), null)),
        });
        if (opened === 'recreated') existed = false;
      } catch (err) {
        if (err instanceof StorageUnavailableError) status.replace(storageStatus(status.get(), 'unavailable'));
        // A command waiting for the writers (writeGate) must not wait forever for a start that failed:
        // it goes on, and its own write meets the same failure and says so.
        writers.failed();
        throw err;
      }
      channel = openTabChannel(`${dbNameFor(userId)}:tabs`, o.channels);
      writers.join(channel); // R1.13: before the first write of a send (the requeue below included)
      if (markers) {
        // Marker present but database gone: the browser evicted it (background/restore.ts).
        if (wasEvicted(markers, userId, existed)) restoreReport = await opaqueSends(() => requeueUnsent(db, markers, userId, now()));
        markDatabase(markers, userId);
        mirror();
        // R16.4: drafts a killed tab left only in the write-ahead copy join the database (a failed fold keeps them there).
        await foldDraftsAhead(db, markers, userId).catch(() => undefined);
      }
      if (restoreReport) {
        // Reported once the first pull has brought the server's data back (here or in the leading tab).
        const off = status.subscribe((s) => {
          if (!s.loaded || !restoreReport) return;
          const r = restoreReport;
          restoreReport = null;
          queueMicrotask(() => off());
          o.onRestored?.(r);
          if (r.requeued > 0) notify();
        });
        cleanups.push(off);
      }
      const storedClock = await db.meta.get('clock');
      if (storedClock?.key === 'clock') {
        storedOffsetMs = storedClock.offsetMs;
        serverOffset.seed(storedClock.offsetMs);
      }
      cleanups.push(installServerNow(serverTimeNow));
      const feed = await readFeed(db);
      if (accountId !== null) await scopeToAccount(db, accountId);
      else accountId = feed.accountId;
      if (feed.pulledAt !== null && (accountId === null || feed.accountId === accountId)) status.patch({ loaded: true });
      cleanups.push(
        channel.subscribe((m) => {
          if (m.type === 'outbox') {
            uploader?.kick();
            send({ type: 'FLUSH' });
          }
          else if (m.type === 'writer?') writers.yieldSolo(); // R1.13: synchronously, before the lock is given
          else if (m.type === 'writer-left') writers.retrySolo();
          else if (m.type === 'status?' && actor) channel?.post({ type: 'status', status: status.get() });
          else if (m.type === 'status' && !actor) status.replace({ ...m.status, leader: false });
        }),
      );
      cleanups.push(status.subscribe((s) => actor && channel?.post({ type: 'status', status: s })));
      cleanups.push(
        o.network.subscribe((sig) => {
          if (sig !== 'visible') o.auth?.network?.(sig === 'online'); // R9.16: before the flush it may start
          // The network is back: back-off delays of failures while it was away no longer apply.
          if (sig !== 'visible') uploader?.kick(); // R12.4: resume, or say 'waiting-network'
          if (sig === 'online') {
            retrySchedule.clear();
            send({ type: 'ONLINE' });
          } else if (sig === 'offline') {
            sessionGate.forget(); // R1.12: a refresh may fail while offline; the flush asks the gate first again
            send({ type: 'OFFLINE' });
          }
          else send({ type: 'REQUEST_PULL', reason: 'other' });
        }),
      );
      if (o.auth) {
        if (!o.network.online()) o.auth.network?.(false); // R9.16
        cleanups.push(() => o.auth?.release?.());
        // R9.2: signed in again: ask the gate at once rather than at the next tick.
        cleanups.push(
          o.auth.subscribe(() => {
            sessionGate.forget(); // R1.12: the session changed; the next pull or push asks the gate again
            if (!status.get().needsSignIn || !actor) return;
            send({ type: 'REQUEST_PULL', reason: 'other' });
            send({ type: 'FLUSH' });
          }),
        );
      }
      leadership = electLeader(leaderLockName(dbNameFor(userId)), o.locks, lead);
      channel.post({ type: 'status?' });
    },
    stop,
    async signOut() {
      await stop();
      await db.delete();
      await deleteSearchDb(userId, dexieOptions(o.idb)); // R15.5
      if (o.markers) forgetDatabase(o.markers, userId);
    },
    syncNow() {
      send({ type: 'REQUEST_PULL', reason: 'other' });
      send({ type: 'FLUSH' });
    },
    async settled() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    subscribeStored: published.subscribeStored,
    storedGeneration: published.storedGeneration,
    subscribeArriving: published.subscribeArriving,
    subscribeUploadProgress(fn) {
      uploadListeners.add(fn);
      return () => void uploadListeners.delete(fn);
    },
  };
}

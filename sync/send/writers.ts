// One engine's side of R1.13 (solo.ts): as a follower, its right to write sends (the writers lock,
// shared); as the leader, its solo hold (the same lock, exclusive). engine.ts composes it:
// - `gate()` is what commands that write sends await first (CommandContext.writeGate), `opaque()` the
//   same for writes whose send the view cannot name in advance (R1.12, send-watch.ts);
// - `join()` once the database opened and the tab channel exists, `failed()` when start() failed,
//   `lead()` when this engine starts to lead, `end()` as stop() begins and `release()` only after the
//   database connection closed.
import type { Clock, TimerId } from '../model/clock.ts';
import type { LockManagerLike, TabChannel } from '../session/leader.ts';
import type { SendWatch } from './send-watch.ts';
import { defaultVisibility, holdSolo, joinWriters, writersLockName, type Solo, type WriterPass } from './solo.ts';

/** R1.13: how often a leader that is not solo (followers write sends) tries again (solo.ts). */
const SOLO_RETRY_MS = 2000;

export interface SendWritersOptions {
  /** The user's database name (the lock is `<dbName>:writers`). */
  dbName: string;
  /** Null: every engine leads and none is ever solo. */
  locks: LockManagerLike | null;
  /** False (no tab channel): as without locks. */
  channels: boolean;
  watch: SendWatch;
  /** Rebuilds `watch` from the database, in a read-write transaction (SendWatch.reload). */
  reload: () => Promise<void>;
  /** The engine's in-flight tracking (settled/stop wait for it). */
  track: <T>(p: Promise<T>) => Promise<T>;
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

export interface SendWriters {
  /** Null when a send may be written now; else resolves when it may. */
  readonly gate: () => Promise<void> | null;
  /** R1.12: a write that may queue a send of a conversation not known before it. */
  readonly opaque: <T>(write: () => Promise<T>) => Promise<T>;
  /** The leader holds the lock exclusive and reloaded its view under it (early-send.ts's fast path). */
  readonly isSolo: () => boolean;
  /** A follower asks to write ('writer?' on the tab channel): stop being solo now, synchronously. */
  yieldSolo(): void;
  /** A follower left ('writer-left'): try to be solo again. */
  retrySolo(): void;
  /** start(): the database opened and `channel` is open; asks for the shared lock (with locks and channels). */
  join(channel: TabChannel): void;
  /** start() failed before join(): commands waiting in `gate()` go on (their write meets the same failure). */
  failed(): void;
  /** This engine leads now: gives the shared lock back and tries to be solo. */
  lead(): void;
  /** stop() begins: no more solo, no more waiting in `gate()`. */
  end(): void;
  /** stop(), after the database connection closed. */
  release(): void;
}

export function createSendWriters(o: SendWritersOptions): SendWriters {
  /** R1.13 (solo.ts): a follower's right to write sends; the leader's solo hold. */
  let writers: WriterPass | null = null;
  let solo: Solo | null = null;
  let stopped = false;
  /** Commands that write sends wait for start() to have joined the writers (when there are Web Locks). */
  let joined!: () => void;
  const joinedWriters = new Promise<void>((resolve) => (joined = resolve));
  const gate = (): Promise<void> | null => {
    if (writers) return writers.wait();
    if (!o.locks || !o.channels || stopped) return null;
    return joinedWriters.then(() => writers?.wait() ?? undefined);
  };
  // A write the view cannot follow: rebuilt at once while solo (no other writer), else at the next hold.
  o.watch.onStale = () => {
    if (solo?.isSolo()) void o.track(o.reload()).catch(() => undefined);
  };

  return {
    gate,
    opaque: async (write) => {
      const g = gate();
      if (g) await g;
      return o.watch.opaque(write);
    },
    isSolo: () => solo?.isSolo() ?? false,
    yieldSolo: () => solo?.yield(), // R1.13: synchronously, before the lock is given
    retrySolo: () => solo?.retry(),
    join(channel) {
      // R1.13: without Web Locks every engine leads and none is ever solo; with them, an engine writes
      // sends only holding the writers lock (shared) until it leads — asked for before its first write
      // (the eviction requeue of start() included).
      if (o.locks && o.channels) writers = joinWriters(writersLockName(o.dbName), o.locks, channel);
      joined();
    },
    failed: () => joined(),
    lead() {
      // Solo is tried at once and again when this engine's own shared writers lock has been given back.
      void writers?.lead().then(() => solo?.retry());
      const locks = o.locks;
      if (locks && writers) {
        solo = holdSolo({
          name: writersLockName(o.dbName),
          locks,
          // Tracked: settled() and stop() wait for the view's rebuild under the lock like any other
          // work of the engine (a test that holds IndexedDB after settled() must not catch it half way).
          reload: () => o.track(o.reload()),
          visibility: defaultVisibility(),
          retryMs: SOLO_RETRY_MS,
          setTimer: (fn, ms) => o.clock.setTimeout(fn, ms),
          clearTimer: (id) => o.clock.clearTimeout(id as TimerId),
        });
      }
    },
    end() {
      stopped = true;
      solo?.end();
      solo = null;
      joined();
    },
    release() {
      // R1.13: only now, with no transaction of this connection left to be created, may another engine be solo.
      writers?.release();
      writers = null;
    },
  };
}

// R7.7: what the banners need, from the machine's context, published only once a new value has
// held for the debounce time so a brief blip does not flash a banner.
import type { Clock, TimerId } from './model/clock.ts';
import type { SyncContext } from './machine.ts';
import type { PullProgress } from './receive/backlog.ts';
import { TEXT_LOAD_FAILED, TEXT_LOAD_FAILED_AFTER_RECONNECT, TEXT_NEEDS_SIGN_IN, TEXT_OFFLINE, TEXT_STORAGE_BLOCKED, TEXT_STORAGE_UNAVAILABLE } from './model/texts.ts';

export type Connection = 'online' | 'offline' | 'fallback' | 'error';

export interface ConnectionStatus {
  connection: Connection;
  /** The spec's text for the banner, or null. */
  error: string | null;
}

export interface SyncStatus extends ConnectionStatus {
  /** The feed has been pulled at least once (now or in an earlier session): local data is complete. */
  loaded: boolean;
  /** This tab runs the sync (the others follow through IndexedDB). */
  leader: boolean;
  /**
   * R9.2: the session is gone (refresh token refused, or another user signed in): nothing is sent
   * or pulled until the same user signs in again; `error` then says so (TEXT_NEEDS_SIGN_IN).
   */
  needsSignIn?: boolean;
  /**
   * R5.10: set while a pull is working through a backlog of more than one page (the list shows
   * 'Sťahujem správy… done z total' instead of a load error while it progresses); null once caught up.
   */
  progress?: PullProgress | null;
  /**
   * R17.2/R17.3: the device's storage cannot be used ('unavailable': not even made anew) or its
   * upgrade waits for another tab ('blocked'); `error` says so in Slovak. Absent or null: usable.
   */
  storage?: StorageProblem | null;
}

export type StorageProblem = 'blocked' | 'unavailable';

/** R17: the status with the storage's problem (or none: the open went on), told in `error`. */
export function storageStatus(s: SyncStatus, problem: StorageProblem | null): SyncStatus {
  if (problem === null) return { ...s, storage: null, connection: 'online', error: null };
  return { ...s, storage: problem, connection: 'error', error: problem === 'blocked' ? TEXT_STORAGE_BLOCKED : TEXT_STORAGE_UNAVAILABLE };
}

function sameProgress(a: PullProgress | null | undefined, b: PullProgress | null | undefined): boolean {
  return (a ?? null) === (b ?? null) || (!!a && !!b && a.done === b.done && a.total === b.total);
}

type StatusInputs = Pick<SyncContext, 'online' | 'pullFailed' | 'pullReason' | 'linkUp' | 'hasLink' | 'everConnected' | 'linkFailures'>;

export function rawStatus(c: StatusInputs, needsSignIn = false): ConnectionStatus {
  if (!c.online) return { connection: 'offline', error: TEXT_OFFLINE };
  // R9.2: while signed out no request goes out, so no load failure either: the one truth is sign-in.
  if (needsSignIn) return { connection: 'error', error: TEXT_NEEDS_SIGN_IN };
  if (c.pullFailed) return { connection: 'error', error: c.pullReason === 'reconnect' ? TEXT_LOAD_FAILED_AFTER_RECONNECT : TEXT_LOAD_FAILED };
  if (c.linkUp) return { connection: 'online', error: null };
  // Until the first subscription attempt has failed, realtime is just connecting.
  if (c.hasLink && !c.everConnected && c.linkFailures === 0) return { connection: 'online', error: null };
  return { connection: 'fallback', error: null };
}

export function sameConnection(a: ConnectionStatus, b: ConnectionStatus): boolean {
  return a.connection === b.connection && a.error === b.error;
}

export interface StatusStore {
  get(): SyncStatus;
  /** A new raw connection status; published after it holds for the debounce time. */
  setConnection(next: ConnectionStatus): void;
  /** Published at once. */
  patch(p: Partial<Pick<SyncStatus, 'loaded' | 'leader' | 'needsSignIn' | 'progress'>>): void;
  /** Publishes a status as is (a follower tab mirroring the leader's). */
  replace(s: SyncStatus): void;
  subscribe(fn: (s: SyncStatus) => void): () => void;
  dispose(): void;
}

export function createStatusStore(clock: Clock, debounceMs: number, initial: SyncStatus): StatusStore {
  let current = initial;
  let pending: ConnectionStatus | null = null;
  let timer: TimerId | null = null;
  const listeners = new Set<(s: SyncStatus) => void>();
  const publish = (next: SyncStatus) => {
    current = next;
    for (const fn of [...listeners]) fn(current);
  };
  const cancel = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return {
    get: () => current,
    setConnection(next) {
      if (sameConnection(next, current)) {
        cancel();
        return;
      }
      if (pending && sameConnection(pending, next)) return;
      cancel();
      pending = next;
      timer = clock.setTimeout(() => {
        timer = null;
        const p = pending;
        pending = null;
        if (p) publish({ ...current, ...p });
      }, debounceMs);
    },
    patch(p) {
      const next = { ...current, ...p };
      const signIn = Boolean(next.needsSignIn) !== Boolean(current.needsSignIn);
      if (next.loaded !== current.loaded || next.leader !== current.leader || signIn || !sameProgress(next.progress, current.progress)) publish(next);
    },
    replace(s) {
      cancel();
      publish(s);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    dispose() {
      cancel();
      listeners.clear();
    },
  };
}

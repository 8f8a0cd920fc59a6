// R8.1: one tab syncs. The leader holds a Web Lock for the user's database; the others wait in the
// lock's queue, so when the leader's tab closes the next one takes over. Followers still run commands
// (IndexedDB is shared) and tell the leader over a BroadcastChannel that the outbox changed; the
// leader mirrors its status to them. Where navigator.locks is missing (Node), every engine leads.
import type { SyncStatus } from '../status.ts';

export interface LockManagerLike {
  /** `ifAvailable`: the callback gets null at once when the lock is not free (solo.ts). */
  request(name: string, options: { mode?: 'exclusive' | 'shared'; signal?: AbortSignal; ifAvailable?: boolean }, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

export interface Leadership {
  isLeader(): boolean;
  /** Gives the lock back (or leaves the queue). */
  release(): void;
}

export function defaultLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? null;
}

export function electLeader(name: string, locks: LockManagerLike | null, onLeader: () => void): Leadership {
  let leader = false;
  let released = false;
  if (!locks) {
    leader = true;
    queueMicrotask(() => {
      if (!released) onLeader();
    });
    return {
      isLeader: () => leader && !released,
      release: () => {
        released = true;
        leader = false;
      },
    };
  }
  const abort = new AbortController();
  let unlock: (() => void) | null = null;
  locks
    .request(name, { mode: 'exclusive', signal: abort.signal }, () => {
      if (released) return Promise.resolve();
      leader = true;
      onLeader();
      return new Promise<void>((resolve) => {
        unlock = resolve;
      });
    })
    .catch(() => undefined); // aborted while waiting: this tab closed before it led
  return {
    isLeader: () => leader && !released,
    release: () => {
      released = true;
      leader = false;
      if (unlock) unlock();
      else abort.abort();
    },
  };
}

export type TabMessage =
  | { type: 'outbox' }
  | { type: 'status'; status: SyncStatus }
  | { type: 'status?' }
  // R1.13 (solo.ts): a follower waits to write sends; a follower that could write them left.
  | { type: 'writer?' }
  | { type: 'writer-left' };

export interface TabChannel {
  post(m: TabMessage): void;
  subscribe(fn: (m: TabMessage) => void): () => void;
  close(): void;
}

interface ChannelLike {
  postMessage(m: unknown): void;
  close(): void;
  onmessage: ((e: MessageEvent) => void) | null;
}

export type ChannelFactory = (name: string) => ChannelLike;

export function defaultChannelFactory(): ChannelFactory | null {
  const BC = (globalThis as { BroadcastChannel?: new (name: string) => ChannelLike }).BroadcastChannel;
  return BC ? (name) => new BC(name) : null;
}

export function openTabChannel(name: string, factory: ChannelFactory | null): TabChannel {
  const listeners = new Set<(m: TabMessage) => void>();
  const ch = factory ? factory(name) : null;
  if (ch) ch.onmessage = (e) => {
    for (const fn of [...listeners]) fn(e.data as TabMessage);
  };
  return {
    post: (m) => ch?.postMessage(m),
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      listeners.clear();
      if (ch) {
        ch.onmessage = null;
        ch.close();
      }
    },
  };
}

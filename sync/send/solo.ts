// R1.13: when the leading engine may trust its in-memory view of the outbox (send-watch.ts) — only
// while no other context can be writing sends. Web Locks make that exact:
// - every engine that does not lead holds the lock `<db>:writers` SHARED before it writes a send, and
//   gives it back only after its database connection closed (so no transaction of it can be created
//   later; one created earlier ends before any later one starts, IndexedDB's order);
// - the leader is "solo" only while it holds that lock EXCLUSIVE (then no follower holds it), taken
//   with ifAvailable (it never queues, so it never stands in a newcomer's way) and followed by a
//   reload of the view in a read-write transaction, which sees every send committed before;
// - a follower waiting for the shared lock says so over the tab channel ('writer?', again every
//   50 ms until granted, in case the message overtook its lock request); the leader stops being solo
//   at once (synchronously, in the message handler) and gives the lock back. It tries again every
//   `retryMs`, or when a follower says it left, or its page becomes visible again;
// - a hidden page is never solo: a frozen background leader would otherwise keep the lock and hold up
//   the visible tab's writes. The service worker flushes only while it holds the leader lock, so it
//   never writes while an engine leads.
// Without Web Locks or a tab channel the leader is never solo, and every send decides in its write
// transaction (early-send.ts's in-transaction path), as before.
import type { LockManagerLike, TabChannel } from '../session/leader.ts';

export const writersLockName = (dbName: string): string => `${dbName}:writers`;

const HELLO_EVERY_MS = 50;

export interface PageVisibility {
  visible(): boolean;
  subscribe(fn: () => void): () => void;
}

export function defaultVisibility(): PageVisibility {
  const doc = (globalThis as { document?: Document }).document;
  if (!doc) return { visible: () => true, subscribe: () => () => undefined };
  return {
    visible: () => doc.visibilityState !== 'hidden',
    subscribe(fn) {
      doc.addEventListener('visibilitychange', fn);
      return () => doc.removeEventListener('visibilitychange', fn);
    },
  };
}

export interface WriterPass {
  /** Null once this engine may write sends; else resolves when it may. */
  wait(): Promise<void> | null;
  /** This engine leads now: it needs no pass (the leader's writes are in its own view). Resolves once the shared lock is given back. */
  lead(): Promise<void>;
  /** After the database connection closed. */
  release(): void;
}

/** A follower's right to write sends: the writers lock, shared. */
export function joinWriters(name: string, locks: LockManagerLike, channel: TabChannel): WriterPass {
  let ready = false;
  let done = false;
  let give: (() => void) | null = null;
  let resolve!: () => void;
  const granted = new Promise<void>((r) => (resolve = r));
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const open = () => {
    ready = true;
    if (timer !== null) clearTimeout(timer);
    resolve();
  };
  const returned = locks
    .request(name, { mode: 'shared', signal: abort.signal }, () => {
      if (done) return Promise.resolve();
      open();
      return new Promise<void>((r) => (give = r));
    })
    .then(
      () => undefined,
      () => undefined, // aborted while waiting: it leads or stopped
    );
  const hello = () => {
    timer = null;
    if (ready || done) return;
    channel.post({ type: 'writer?' });
    timer = setTimeout(hello, HELLO_EVERY_MS);
  };
  hello();
  const drop = () => {
    done = true;
    if (timer !== null) clearTimeout(timer);
    if (give) give();
    else abort.abort();
    give = null;
  };
  return {
    wait: () => (ready ? null : granted),
    lead() {
      drop();
      open();
      return returned;
    },
    release() {
      const held = give !== null;
      drop();
      if (held) channel.post({ type: 'writer-left' });
    },
  };
}

export interface Solo {
  /** True only while the writers lock is held exclusive and the view was reloaded under it. */
  isSolo(): boolean;
  /** A follower asks to write: stop being solo now. */
  yield(): void;
  /** Try again now (a follower left). */
  retry(): void;
  end(): void;
}

export interface SoloOptions {
  name: string;
  locks: LockManagerLike;
  /** Rebuilds the view; runs holding the lock, before solo is on. */
  reload: () => Promise<void>;
  visibility: PageVisibility;
  retryMs: number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (id: unknown) => void;
}

export function holdSolo(o: SoloOptions): Solo {
  let solo = false;
  let ended = false;
  let trying = false;
  /** Bumped by every yield: a grant or reload begun before it no longer counts. */
  let epoch = 0;
  let give: (() => void) | null = null;
  let timer: unknown = null;

  const schedule = () => {
    if (ended || timer !== null) return;
    timer = o.setTimer(() => {
      timer = null;
      attempt();
    }, o.retryMs);
  };
  const attempt = () => {
    if (ended || trying || give !== null || !o.visibility.visible()) {
      if (!ended && give === null) schedule();
      return;
    }
    trying = true;
    const mine = epoch;
    o.locks
      .request(o.name, { mode: 'exclusive', ifAvailable: true }, async (lock) => {
        trying = false;
        if (lock === null || ended || mine !== epoch) return schedule();
        const held = new Promise<void>((r) => (give = r));
        try {
          await o.reload();
        } catch {
          give = null;
          return schedule();
        }
        if (ended || mine !== epoch) {
          give = null;
          return schedule();
        }
        solo = true;
        await held;
      })
      .catch(() => {
        trying = false;
        schedule();
      });
  };
  const yieldNow = () => {
    solo = false;
    epoch++;
    const g = give;
    give = null;
    g?.();
  };
  const offVisibility = o.visibility.subscribe(() => {
    if (o.visibility.visible()) attempt();
    else {
      yieldNow();
      schedule();
    }
  });
  attempt();
  return {
    isSolo: () => solo,
    yield() {
      yieldNow();
      schedule();
    },
    retry: () => attempt(),
    end() {
      ended = true;
      offVisibility();
      if (timer !== null) o.clearTimer(timer);
      timer = null;
      yieldNow();
    },
  };
}

// The test kit's Web Locks stand-in (one per simulated browser profile) faithful to what the engine relies on (https://w3c.github.io/web-locks/):
// locks by name, exclusive and shared modes, a FIFO queue per name (a shared request waits behind a
// queued exclusive one), `ifAvailable` (the callback gets null at once unless grantable now) and
// `signal` (an aborted waiter leaves the queue, its promise rejects). `query()` mirrors
// navigator.locks.query for assertions.
import type { LockManagerLike } from '../session/leader.ts';

type Mode = 'exclusive' | 'shared';

interface Waiter {
  mode: Mode;
  grant: () => void;
}

export interface FakeLocks extends LockManagerLike {
  query(): { held: { name: string; mode: Mode }[]; pending: { name: string; mode: Mode }[] };
}

export function fakeLocks(): FakeLocks {
  const held = new Map<string, Mode[]>();
  const queues = new Map<string, Waiter[]>();
  const conflicts = (name: string, mode: Mode) => {
    const h = held.get(name) ?? [];
    return mode === 'exclusive' ? h.length > 0 : h.includes('exclusive');
  };
  const pump = (name: string) => {
    const q = queues.get(name) ?? [];
    while (q.length && !conflicts(name, q[0]!.mode)) q.shift()!.grant();
  };
  return {
    request(name, options, callback) {
      const mode: Mode = options.mode ?? 'exclusive';
      return new Promise((resolve, reject) => {
        const run = () => {
          held.set(name, [...(held.get(name) ?? []), mode]);
          const release = () => {
            const h = held.get(name) ?? [];
            h.splice(h.indexOf(mode), 1);
            pump(name);
          };
          // Granted asynchronously, as the browser does.
          queueMicrotask(() => {
            callback({ name, mode }).then(
              (v) => {
                release();
                resolve(v);
              },
              (e: unknown) => {
                release();
                reject(e instanceof Error ? e : new Error(String(e)));
              },
            );
          });
        };
        const q = queues.get(name) ?? [];
        queues.set(name, q);
        const free = q.length === 0 && !conflicts(name, mode);
        if (options.ifAvailable) {
          if (free) run();
          else queueMicrotask(() => void callback(null).then(resolve, reject));
          return;
        }
        if (free) return run();
        const waiter: Waiter = { mode, grant: run };
        q.push(waiter);
        options.signal?.addEventListener('abort', () => {
          const i = q.indexOf(waiter);
          if (i < 0) return;
          q.splice(i, 1);
          reject(new Error('AbortError'));
          pump(name);
        });
      });
    },
    query() {
      return {
        held: [...held].flatMap(([name, modes]) => modes.map((mode) => ({ name, mode }))),
        pending: [...queues].flatMap(([name, q]) => q.map((w) => ({ name, mode: w.mode }))),
      };
    },
  };
}

/** BroadcastChannel stand-in: every channel of one hub with the same name hears the others (never itself). */
export function channelHub() {
  const open = new Map<string, Set<{ onmessage: ((e: MessageEvent) => void) | null }>>();
  return (name: string) => {
    const set = open.get(name) ?? new Set();
    open.set(name, set);
    const ch = {
      onmessage: null as ((e: MessageEvent) => void) | null,
      postMessage(m: unknown) {
        for (const other of set) {
          if (other === ch) continue;
          setTimeout(() => other.onmessage?.({ data: structuredClone(m) } as MessageEvent), 0);
        }
      },
      close() {
        set.delete(ch);
      },
    };
    set.add(ch);
    return ch;
  };
}

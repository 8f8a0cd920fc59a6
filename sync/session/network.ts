// Where the engine learns about connectivity and visibility: the browser's online/offline and
// visibilitychange events by default; tests drive a manual source.
export type NetworkSignal = 'online' | 'offline' | 'visible';

export interface NetworkSource {
  online(): boolean;
  subscribe(fn: (signal: NetworkSignal) => void): () => void;
}

interface EventTargetLike {
  addEventListener(type: string, fn: () => void): void;
  removeEventListener(type: string, fn: () => void): void;
}

export function browserNetwork(): NetworkSource {
  const g = globalThis as { navigator?: { onLine?: boolean }; document?: { visibilityState?: string } & Partial<EventTargetLike> } & Partial<EventTargetLike>;
  return {
    online: () => g.navigator?.onLine !== false,
    subscribe(fn) {
      const on = () => fn('online');
      const off = () => fn('offline');
      const vis = () => g.document?.visibilityState === 'visible' && fn('visible');
      g.addEventListener?.('online', on);
      g.addEventListener?.('offline', off);
      g.document?.addEventListener?.('visibilitychange', vis);
      return () => {
        g.removeEventListener?.('online', on);
        g.removeEventListener?.('offline', off);
        g.document?.removeEventListener?.('visibilitychange', vis);
      };
    },
  };
}

export interface ManualNetwork extends NetworkSource {
  set(online: boolean): void;
  signal(s: NetworkSignal): void;
}

export function manualNetwork(initial = true): ManualNetwork {
  let online = initial;
  const listeners = new Set<(s: NetworkSignal) => void>();
  const signal = (s: NetworkSignal) => {
    for (const fn of [...listeners]) fn(s);
  };
  return {
    online: () => online,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    set(next) {
      if (next === online) return;
      online = next;
      signal(next ? 'online' : 'offline');
    },
    signal,
  };
}

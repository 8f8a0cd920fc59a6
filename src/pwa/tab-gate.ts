// Update safety across tabs: a waiting version replaces the code of EVERY open tab, so it may activate
// only when every tab says a reload loses nothing there (its own drafts; the outbox is shared).
// Each tab holds a Web Lock named `poradna:tab:<id>` for its lifetime, so the asking tab knows which
// tabs exist (navigator.locks.query) and asks each over a BroadcastChannel. Invariant: a tab that
// does not answer in time counts as "not safe" (a frozen background tab holds the update back rather
// than losing its draft); the asking tab simply asks again at its next recheck.
const CHANNEL = 'poradna-update-gate';
const LOCK_PREFIX = 'poradna:tab:';
const ANSWER_MS = 1500;

type GateMessage = { type: 'safe?'; ask: string } | { type: 'safe'; ask: string; tab: string; safe: boolean };

interface LocksLike {
  request(name: string, cb: () => Promise<void>): Promise<void>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

export interface TabGate {
  allTabsSafe(): Promise<boolean>;
  close(): void;
}

const newId = () => crypto.randomUUID();

export function openTabGate(localSafe: () => Promise<boolean>): TabGate {
  const tab = newId();
  const locks = (navigator as { locks?: LocksLike }).locks ?? null;
  const ch = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  const waiters = new Map<string, (tab: string, safe: boolean) => void>();
  let releaseTab: (() => void) | null = null;
  void locks?.request(LOCK_PREFIX + tab, () => new Promise<void>((resolve) => (releaseTab = resolve)));

  if (ch)
    ch.onmessage = (e: MessageEvent<GateMessage>) => {
      const m = e.data;
      if (m.type === 'safe?') {
        void localSafe()
          .catch(() => false)
          .then((safe) => ch.postMessage({ type: 'safe', ask: m.ask, tab, safe } satisfies GateMessage));
      } else if (m.type === 'safe') waiters.get(m.ask)?.(m.tab, m.safe);
    };

  async function otherTabs(): Promise<Set<string> | null> {
    if (!locks) return null;
    const { held = [] } = await locks.query();
    const ids = held.map((l) => l.name ?? '').filter((n) => n.startsWith(LOCK_PREFIX) && n !== LOCK_PREFIX + tab);
    return new Set(ids.map((n) => n.slice(LOCK_PREFIX.length)));
  }

  return {
    async allTabsSafe() {
      if (!(await localSafe().catch(() => false))) return false;
      if (!ch) return true; // no channel: this browser cannot have other tabs we could hear
      const expected = await otherTabs();
      if (expected && expected.size === 0) return true;
      const ask = newId();
      return new Promise<boolean>((resolve) => {
        const answered = new Set<string>();
        const finish = (v: boolean) => {
          clearTimeout(timer);
          waiters.delete(ask);
          resolve(v);
        };
        // Without Web Locks the tab count is unknown: whoever answers in time decides.
        const timer = setTimeout(() => finish(expected === null), ANSWER_MS);
        waiters.set(ask, (from, safe) => {
          if (!safe) return finish(false);
          answered.add(from);
          if (expected && [...expected].every((t) => answered.has(t))) finish(true);
        });
        ch.postMessage({ type: 'safe?', ask } satisfies GateMessage);
      });
    },
    close() {
      releaseTab?.();
      if (ch) {
        ch.onmessage = null;
        ch.close();
      }
    },
  };
}

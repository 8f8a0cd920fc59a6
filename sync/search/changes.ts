// R15.4: which messages a write changed, read from Dexie's `storagemutated` event (fired in the
// writing context when a transaction commits and relayed to other tabs and workers over a
// BroadcastChannel, so the parts may arrive as plain structured clones of Dexie's RangeSet).
// The part `idb://<db>/messages/` (the primary key; an index's part ends in its name) is a tree of
// ranges { from, to, l, r }: a put, add or delete of fewer than 50 rows names each key as a range
// from = to; a bigger bulk write, a range delete or a clear is a range (Dexie's observability
// middleware, dexie.mjs `mutatedParts`), which only a full catch-up can follow.

/** Every message key that changed, or `all` when the change is not a list of keys. */
export type MessageChanges = { all: true } | { keys: string[] };

export const ALL_CHANGED: MessageChanges = { all: true };

interface RangeNode {
  from?: unknown;
  to?: unknown;
  l?: RangeNode | null;
  r?: RangeNode | null;
}

/** The message keys a range tree names, or null if any range spans more than one key. */
function keysOf(tree: RangeNode): string[] | null {
  const keys: string[] = [];
  const stack: RangeNode[] = [tree];
  while (stack.length) {
    const n = stack.pop()!;
    if ('from' in n) {
      if (typeof n.from !== 'string' || n.from !== n.to) return null;
      keys.push(n.from);
    }
    if (n.l) stack.push(n.l);
    if (n.r) stack.push(n.r);
  }
  return keys;
}

/** What one storagemutated event changed in `dbName`'s messages table, or null if nothing. */
export function messageChanges(parts: Record<string, unknown>, dbName: string): MessageChanges | null {
  const prefix = `idb://${dbName}/messages/`;
  const pk = parts[prefix] as RangeNode | undefined;
  if (pk == null || typeof pk !== 'object') {
    // Some other part of the table without its primary key: never written by Dexie, but not ignored.
    return Object.keys(parts).some((p) => p.startsWith(prefix)) ? ALL_CHANGED : null;
  }
  const keys = keysOf(pk);
  if (keys === null) return ALL_CHANGED;
  return keys.length ? { keys } : null;
}

/** Two changes as one (the worker gathers the events of a burst of writes). */
export function mergeChanges(a: MessageChanges | null, b: MessageChanges): MessageChanges {
  if (!a) return b;
  if ('all' in a || 'all' in b) return ALL_CHANGED;
  return { keys: [...new Set([...a.keys, ...b.keys])] };
}

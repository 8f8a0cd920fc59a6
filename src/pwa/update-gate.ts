// Things that must not be lost to a reload (queued outbox entries, a half-typed draft) register a
// blocker here; a waiting service-worker version activates only when no blocker objects.
type Blocker = () => boolean | Promise<boolean>;

const blockers = new Set<Blocker>();

/** `blocks()` returns true while reloading now would lose something. Returns the unregister function. */
export function registerUpdateBlocker(blocks: Blocker): () => void {
  blockers.add(blocks);
  return () => blockers.delete(blocks);
}

export async function updateIsSafe(): Promise<boolean> {
  for (const b of blockers) {
    try {
      if (await b()) return false;
    } catch {
      return false; // a blocker that cannot answer is treated as "not safe yet"
    }
  }
  return true;
}

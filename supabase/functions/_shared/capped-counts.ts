// Counts per key under a cap: a user's push notifications in flight (push/per-user.ts), a client
// address's realtime sockets (supabase/local/realtime/flood-guard.ts). Invariant: a key has an entry
// only while its count is above zero, so the map never grows with keys that are gone; take() and
// free() are called in pairs.
export class CappedCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly cap: () => number) {}

  /** Counts one more for `key`, or answers false when it holds the cap already. */
  take(key: string): boolean {
    const n = this.counts.get(key) ?? 0;
    if (n >= this.cap()) return false;
    this.counts.set(key, n + 1);
    return true;
  }

  free(key: string): void {
    const n = (this.counts.get(key) ?? 1) - 1;
    if (n <= 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }
}

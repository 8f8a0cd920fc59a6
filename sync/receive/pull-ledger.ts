// R19.5: a pull into a store that provably lacks its rows does not read them first. An initial
// sync's pages are all new rows, and each page's merge read its 1,000 keys (a bulkGet answering
// nothing) before writing them. The proof, held per pull and checked inside each page's transaction:
//
//   every stored row under a server key (`s:<id>`, R3.1) is one this pull stored (`keys`).
//
// It starts in the pull's first transaction when the store holds no `s:` row at all (one key-only
// step of the primary index). Only `applyRemoteMessages` writes `s:` rows, and every transaction of
// it that writes one counts itself in the feed row (`FeedMeta.serverWrites`, apply.ts), in the same
// transaction. The pull learns the count its own transactions leave; a page that finds another
// (a realtime record, a send's reply, another tab's pull wrote between two pages) reads every key
// as before, for the rest of the pull. Removals
// (R5.7's reset, deletions) only shrink the stored set, so the proof survives them. Keys under a
// correlation id (`c:`) are the user's own sends, which this device writes before the server has
// them (optimistic copies, relayed copies): those are always read.
import type { SyncDb } from '../db/schema.ts';
import type { FeedMeta } from '../model/local-types.ts';

export class PullLedger {
  /** `s:` keys this pull stored. */
  private readonly keys = new Set<string>();
  /** The feed's count of `s:` writes this pull's last transaction left; null: not proven (or lost). */
  private stamp: number | null = null;
  private began = false;

  /**
   * Called first thing in each of the pull's transactions: whether the proof holds in it. The first
   * call looks for any `s:` row; a later one compares the feed's count of `s:` writes.
   */
  async check(db: SyncDb, feed: FeedMeta): Promise<boolean> {
    if (!this.began) {
      this.began = true;
      const any = await db.messages.where(':id').startsWith('s:').limit(1).primaryKeys();
      if (any.length === 0) this.stamp = feed.serverWrites ?? 0;
    } else if (this.stamp !== null && (feed.serverWrites ?? 0) !== this.stamp) this.stamp = null;
    return this.stamp !== null;
  }

  /** The keys of `keys` that may be stored (all of them without the proof). */
  mayBeStored(keys: string[], proven: boolean): string[] {
    return proven ? keys.filter((k) => !k.startsWith('s:') || this.keys.has(k)) : keys;
  }

  /** What the pull's transaction wrote and removed, and the feed's count of `s:` writes it left. */
  stored(put: Iterable<string>, removed: Iterable<string>, serverWrites: number): void {
    if (this.stamp !== null) this.stamp = serverWrites;
    for (const k of put) if (k.startsWith('s:')) this.keys.add(k);
    for (const k of removed) this.keys.delete(k);
  }
}

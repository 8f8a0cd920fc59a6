// R6.5: an open chat lays the engine's latest published messages (subscribeStored) over its live
// query's last answer, so a message from another device paints in the frame after its write commits
// rather than after the re-read of the whole conversation (bench row 4). Pure.
import type { LocalMessage } from '../model/local-types.ts';

/** A stored message (or a deletion: row null) published by the engine after its write committed. */
export interface Recent {
  row: LocalMessage | null;
  generation: number;
  /**
   * R6.6: a realtime message not yet stored (engine.subscribeArriving). Kept whatever reads answer
   * (they may not have it yet) until its stored row's publication replaces it or it is settled.
   */
  transient?: boolean;
}

/**
 * The live list with the engine's recent publications laid over it (bench row 4: a message from
 * another device paints in the frame after its write commits, not after the re-read of the whole
 * conversation). A publication is dropped once a read that started after it has answered
 * (`generation` ≤ the read's); until then it wins over an older copy (lower changeSeq) in the list.
 */
export function overlayRecent(live: LocalMessage[], readGeneration: number, recent: ReadonlyMap<string, Recent>, conversationId: string): LocalMessage[] {
  const pending = [...recent].filter(([, r]) => (r.transient || r.generation > readGeneration) && (r.row === null || r.row.conversationId === conversationId));
  if (pending.length === 0) return live;
  const byKey = new Map(live.map((m) => [m.key, m]));
  let changed = false;
  for (const [key, { row }] of pending) {
    const current = byKey.get(key);
    if (row === null) {
      if (current) {
        byKey.delete(key);
        changed = true;
      }
    } else if (!current || current.changeSeq < row.changeSeq) {
      byKey.set(key, row);
      changed = true;
    }
  }
  if (!changed) return live;
  // R4.1 order: (created_at, id) as the orderKey.
  return [...byKey.values()].sort((a, b) => (a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0));
}

/**
 * The publications to keep once a read of generation `readGeneration` answered, with `publication`
 * applied: stored rows and deletions of `generation`, or R6.6's arriving copy (`transient`), or the
 * settling of one (dropped unless its stored row replaced it already — then it is no longer transient).
 */
export function nextRecent(
  prev: ReadonlyMap<string, Recent>,
  readGeneration: number,
  publication: { put: LocalMessage[]; removed: string[]; generation: number } | { arriving: LocalMessage; generation: number } | { settled: string },
): Map<string, Recent> {
  const next = new Map<string, Recent>();
  for (const [k, r] of prev) if (r.transient || r.generation > readGeneration) next.set(k, r);
  if ('settled' in publication) {
    if (next.get(publication.settled)?.transient) next.delete(publication.settled);
  } else if ('arriving' in publication) {
    const m = publication.arriving;
    const held = next.get(m.key);
    // A stored publication of the same or a newer change already covers it.
    if (!held || held.row === null || held.row.changeSeq < m.changeSeq) next.set(m.key, { row: m, generation: publication.generation, transient: true });
  } else {
    for (const k of publication.removed) next.set(k, { row: null, generation: publication.generation });
    for (const m of publication.put) next.set(m.key, { row: m, generation: publication.generation });
  }
  return next;
}

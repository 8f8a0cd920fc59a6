// R6.5: an open chat lays the engine's latest published messages (subscribeStored) over its live
// query's last answer, so a message from another device paints in the frame after its write commits
// rather than after the re-read of the whole conversation (bench row 4). Pure.
import type { LocalMessage } from './local-types.ts';

/** A stored message (or a deletion: row null) published by the engine after its write committed. */
export interface Recent {
  row: LocalMessage | null;
  generation: number;
}

/**
 * The live list with the engine's recent publications laid over it (bench row 4: a message from
 * another device paints in the frame after its write commits, not after the re-read of the whole
 * conversation). A publication is dropped once a read that started after it has answered
 * (`generation` ≤ the read's); until then it wins over an older copy (lower changeSeq) in the list.
 */
export function overlayRecent(live: LocalMessage[], readGeneration: number, recent: ReadonlyMap<string, Recent>, conversationId: string): LocalMessage[] {
  const pending = [...recent].filter(([, r]) => r.generation > readGeneration && (r.row === null || r.row.conversationId === conversationId));
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

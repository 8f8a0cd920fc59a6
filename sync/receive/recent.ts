// R6.5: an open chat lays the engine's latest published messages (subscribeStored) over its live
// query's last answer, so a message from another device paints in the frame after its write commits
// rather than after the re-read of the whole conversation (bench row 4). Pure.
import type { LocalMessage } from '../model/local-types.ts';
import type { Arriving } from './published.ts';

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
/** A publication a read of `readGeneration` does not cover yet, for this conversation (a deletion for any). */
function pendingFor(r: Recent, readGeneration: number, conversationId: string): boolean {
  return (r.transient || r.generation > readGeneration) && (r.row === null || r.row.conversationId === conversationId);
}

export function overlayRecent(live: LocalMessage[], readGeneration: number, recent: ReadonlyMap<string, Recent>, conversationId: string): LocalMessage[] {
  const pending = [...recent].filter(([, r]) => pendingFor(r, readGeneration, conversationId));
  if (pending.length === 0) return live;
  const at = positions(live);
  const gone = new Set<string>();
  const puts: LocalMessage[] = [];
  for (const [key, { row }] of pending) {
    const i = at.get(key);
    const current = i === undefined ? undefined : live[i];
    if (row === null) {
      if (current) gone.add(key);
    } else if (!current || current.changeSeq < row.changeSeq) {
      if (current) gone.add(key);
      puts.push(row);
    }
  }
  if (gone.size === 0 && puts.length === 0) return live;
  // R4.1 order: (created_at, id) as the orderKey. The list is already in that order, so the few
  // changed rows are placed by binary search instead of sorting the whole window again: this runs in
  // the render that paints an arriving message (bench row 4), once per publication.
  const out = gone.size === 0 ? live.slice() : live.filter((m) => !gone.has(m.key));
  for (const row of puts.sort(byOrderKey)) out.splice(insertionPoint(out, row.orderKey), 0, row);
  return out;
}

/**
 * overlayRecent over a chat read in two parts (the older rows, then the newest ones: queries.ts
 * messagesAround): the same list, but the publications are laid over the recent part alone when
 * none of them replaces or removes an older row or sorts before the older part's end, which is every
 * arrival. The older part's index is then never rebuilt, so a publication costs the recent window's
 * size, not the chat's.
 */
export function overlayParts(
  older: LocalMessage[],
  recentRows: LocalMessage[],
  readGeneration: number,
  recent: ReadonlyMap<string, Recent>,
  conversationId: string,
): LocalMessage[] {
  if (older.length === 0) return overlayRecent(recentRows, readGeneration, recent, conversationId);
  const olderAt = positions(older);
  const olderEnd = older[older.length - 1]!.orderKey;
  for (const [key, r] of recent) {
    if (!pendingFor(r, readGeneration, conversationId)) continue;
    if (olderAt.has(key) || (r.row !== null && r.row.orderKey <= olderEnd)) {
      return overlayRecent(older.concat(recentRows), readGeneration, recent, conversationId);
    }
  }
  return older.concat(overlayRecent(recentRows, readGeneration, recent, conversationId));
}

/**
 * Each key's index in a read's answer, built once per answer: the overlay runs for every publication
 * (two or three per arrival) over the same answer of 100+ rows.
 */
const positionsOf = new WeakMap<readonly LocalMessage[], Map<string, number>>();
function positions(live: readonly LocalMessage[]): Map<string, number> {
  let at = positionsOf.get(live);
  if (!at) positionsOf.set(live, (at = new Map(live.map((m, i) => [m.key, i]))));
  return at;
}

const byOrderKey = (a: LocalMessage, b: LocalMessage) => (a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0);

/** The first index whose orderKey is above `orderKey` (the list is in orderKey order). */
function insertionPoint(list: readonly LocalMessage[], orderKey: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.orderKey <= orderKey) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The publications to keep once a read of generation `readGeneration` answered, with `publication`
 * applied: stored rows and deletions of `generation`, or R6.6's arriving copy (`transient`), or the
 * settling of one (dropped unless its stored row replaced it already — then it is no longer transient).
 */
export function nextRecent(
  prev: ReadonlyMap<string, Recent>,
  readGeneration: number,
  publication:
    | { put: LocalMessage[]; removed: string[]; generation: number }
    | { arriving: LocalMessage; generation: number }
    | { settled: string; generation?: number },
): Map<string, Recent> {
  const next = new Map<string, Recent>();
  for (const [k, r] of prev) if (r.transient || r.generation > readGeneration) next.set(k, r);
  if ('settled' in publication) {
    const held = next.get(publication.settled);
    if (held?.transient) {
      // R6.6: a write that ended without storing the copy (the row was stored already, e.g. by the
      // own send's answer) keeps it as a publication of the settling's generation: the last read
      // may predate that earlier write, so dropping the copy now would show that read's older
      // version (an own 'sent' message back to 'sending') until the re-read answers.
      if (publication.generation === undefined) next.delete(publication.settled);
      else next.set(publication.settled, { row: held.row, generation: publication.generation });
    }
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

/**
 * What an open chat keeps after the engine hands it an arriving copy or settles one
 * (engine.subscribeArriving): `generation` is the engine's storedGeneration now. A settling of a copy
 * no longer shown as transient (its stored row's publication replaced it) changes nothing.
 */
export function afterArriving(prev: ReadonlyMap<string, Recent>, readGeneration: number, a: Arriving, generation: number): ReadonlyMap<string, Recent> {
  if ('settled' in a && !prev.get(a.settled)?.transient) return prev;
  return nextRecent(prev, readGeneration, 'row' in a ? { arriving: a.row, generation } : a);
}

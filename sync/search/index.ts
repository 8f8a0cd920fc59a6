// R15.2: the message index. FlexSearch (bench/RESULTS.md, issue 40: measured against MiniSearch)
// with forward tokenisation (every prefix of every folded word is a key, so 'kampan' finds
// 'kampane') over normalise.ts's folded words; a query's words must all match. It stores no text:
// hits are read back from the messages table (a key no longer there is no hit).
//
// FlexSearch wants numeric ids: slot i of `keys` holds the message key of id i (null once removed)
// and `times[i]` its createdAt in ms, so hits are ordered newest first without reading any row.
// A message's text can change after it is stored (an AI answer streams into its row, R13.1; an agent
// edits a reply, R14.9): `sums[i]` fingerprints the text indexed, and adding a held key with another
// text re-indexes it in place (FlexSearch's update), so the whole answer is found, not its first words.
import { Index } from 'flexsearch';
import { terms } from './normalise.ts';

export interface IndexedMessage {
  key: string;
  text: string;
  createdAt: string;
}

/** What is persisted besides FlexSearch's own export: exactly the messages the index holds. */
export interface IndexSlots {
  keys: (string | null)[];
  times: number[];
  /** textSum of the text indexed under each id. */
  sums: number[];
}

/** FNV-1a over the UTF-16 code units: tells a changed text from the one indexed, nothing more. */
export function textSum(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Matches {
  /** Message keys, newest first, at most `limit`. */
  keys: string[];
  /** Every match, for the count announced. */
  total: number;
}

function flex(): Index {
  return new Index({ tokenize: 'forward', encode: terms });
}

export class MessageIndex {
  private ix = flex();
  private slots: IndexSlots = { keys: [], times: [], sums: [] };
  private byKey = new Map<string, number>();
  /** Messages added since this object was made (tests count them: a reload must not re-add). */
  adds = 0;

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Keys held, for the catch-up's diff against the messages table. */
  heldKeys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Adds a message, or re-indexes a held one whose text changed; answers whether the index changed. */
  add(m: IndexedMessage): boolean {
    const sum = textSum(m.text);
    const held = this.byKey.get(m.key);
    if (held !== undefined) {
      if (this.slots.sums[held] === sum) return false;
      this.ix.update(held, m.text);
      this.slots.sums[held] = sum;
      return true;
    }
    const id = this.slots.keys.length;
    this.slots.keys.push(m.key);
    this.slots.times.push(Date.parse(m.createdAt) || 0);
    this.slots.sums.push(sum);
    this.byKey.set(m.key, id);
    this.ix.add(id, m.text);
    this.adds++;
    return true;
  }

  /** Held keys of messages created at or after `since` (ms): the ones still likely to change. */
  keysSince(since: number): string[] {
    const { keys, times } = this.slots;
    const out: string[] = [];
    for (let id = keys.length - 1; id >= 0; id--) if (keys[id] != null && times[id]! >= since) out.push(keys[id]!);
    return out;
  }

  remove(key: string): void {
    const id = this.byKey.get(key);
    if (id === undefined) return;
    this.ix.remove(id);
    this.slots.keys[id] = null;
    this.byKey.delete(key);
  }

  search(query: string, limit: number): Matches {
    if (terms(query).length === 0) return { keys: [], total: 0 };
    const ids = this.ix.search(query, { limit: Number.MAX_SAFE_INTEGER }) as number[];
    const { keys, times } = this.slots;
    const live = ids.filter((id) => keys[id] != null);
    live.sort((a, b) => times[b]! - times[a]! || b - a);
    return { keys: live.slice(0, limit).map((id) => keys[id]!), total: live.length };
  }

  /** FlexSearch's export (key → data) plus the slots: everything a reload needs. */
  exportParts(): { parts: [string, string][]; slots: IndexSlots } {
    const parts: [string, string][] = [];
    // With a synchronous handler FlexSearch exports synchronously (every part before it returns).
    this.ix.export((key: string, data: string) => {
      if (data != null) parts.push([key, data]);
    });
    return { parts, slots: { keys: [...this.slots.keys], times: [...this.slots.times], sums: [...this.slots.sums] } };
  }

  static fromParts(parts: [string, string][], slots: IndexSlots): MessageIndex {
    const m = new MessageIndex();
    for (const [key, data] of parts) m.ix.import(key, data);
    m.slots = slots;
    slots.keys.forEach((k, id) => {
      if (k !== null) m.byKey.set(k, id);
    });
    return m;
  }
}

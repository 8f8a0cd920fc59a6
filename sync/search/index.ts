// R15.2: the message index. FlexSearch (bench/RESULTS.md, issue 40: measured against MiniSearch)
// over normalise.ts's folded words; every word of a query must be the start of some word of the
// message ('kampan' finds 'kampane'). It stores no text: hits are read back from the messages table
// (a key no longer there is no hit).
//
// Two FlexSearch indexes, so a prefix is filed once per distinct word, not once per message holding
// it (bench row 12b: forward tokenisation over the messages filed ~1.2 M (prefix, message) pairs for
// 20,000 messages and that filing was the build's cost):
// - `words`: the vocabulary, forward-tokenised: every prefix of every folded word seen → word ids;
// - `ix`: the messages, strict: each distinct folded word of a message → message ids.
// A query word is expanded to the words it starts (from `words`), the messages holding any of them
// are its matches, and a message matches the query if it matches every query word. A word stays in
// the vocabulary after its last message is removed: it expands to no message.
//
// FlexSearch wants numeric ids: slot i of `keys` holds the message key of id i (null once removed)
// and `times[i]` its createdAt in ms, so hits are ordered newest first without reading any row;
// `vocab[w]` is the word of word id w.
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
  /** The vocabulary: the folded word of each word id. */
  vocab: string[];
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

// Both get their input folded already (`add` folds once): the vocabulary one word per entry, the
// messages their distinct words joined by a space (a folded word holds no space). One relevance slot
// (`resolution: 1`): hits are ordered by createdAt, never by FlexSearch's score.
const oneWord = (w: string): string[] => [w];
const spaced = (s: string): string[] => s.split(' ');
const wordIndex = (): Index => new Index({ tokenize: 'forward', resolution: 1, encode: oneWord });
const messageIndex = (): Index => new Index({ tokenize: 'strict', resolution: 1, encode: spaced });
const ALL = { limit: Number.MAX_SAFE_INTEGER };

export class MessageIndex {
  private ix = messageIndex();
  private words = wordIndex();
  private slots: IndexSlots = { keys: [], times: [], sums: [], vocab: [] };
  private byKey = new Map<string, number>();
  private wordIds = new Map<string, number>();
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
    if (held !== undefined && this.slots.sums[held] === sum) return false;
    const distinct = new Set(terms(m.text));
    for (const w of distinct) {
      if (this.wordIds.has(w)) continue;
      const wid = this.slots.vocab.length;
      this.slots.vocab.push(w);
      this.wordIds.set(w, wid);
      this.words.add(wid, w);
    }
    const content = [...distinct].join(' ');
    if (held !== undefined) {
      this.ix.update(held, content);
      this.slots.sums[held] = sum;
      return true;
    }
    const id = this.slots.keys.length;
    this.slots.keys.push(m.key);
    this.slots.times.push(Date.parse(m.createdAt) || 0);
    this.slots.sums.push(sum);
    this.byKey.set(m.key, id);
    this.ix.add(id, content);
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
    const queryWords = [...new Set(terms(query))];
    if (queryWords.length === 0) return { keys: [], total: 0 };
    const { keys, times, vocab } = this.slots;
    // seen[id] = how many query words message id has matched so far, in order: a message counts for
    // query word j only if it matched words 0..j-1, and once however many of its words j starts.
    const seen = new Uint16Array(keys.length);
    const live: number[] = [];
    for (let j = 0; j < queryWords.length; j++) {
      const last = j === queryWords.length - 1;
      for (const wid of this.words.search(queryWords[j]!, ALL) as number[]) {
        for (const id of this.ix.search(vocab[wid]!, ALL) as number[]) {
          if (seen[id] !== j) continue;
          seen[id] = j + 1;
          if (last && keys[id] != null) live.push(id);
        }
      }
    }
    live.sort((a, b) => times[b]! - times[a]! || b - a);
    return { keys: live.slice(0, limit).map((id) => keys[id]!), total: live.length };
  }

  /** FlexSearch's export (key → data) plus the slots: everything a reload needs. */
  exportParts(): { parts: [string, string][]; slots: IndexSlots } {
    const parts: [string, string][] = [];
    // With a synchronous handler FlexSearch exports synchronously (every part before it returns).
    // The two indexes' parts apart by a prefix of their keys.
    for (const [prefix, ix] of [['m:', this.ix], ['w:', this.words]] as const) {
      ix.export((key: string, data: string) => {
        if (data != null) parts.push([prefix + key, data]);
      });
    }
    const { keys, times, sums, vocab } = this.slots;
    return { parts, slots: { keys: [...keys], times: [...times], sums: [...sums], vocab: [...vocab] } };
  }

  static fromParts(parts: [string, string][], slots: IndexSlots): MessageIndex {
    const m = new MessageIndex();
    for (const [key, data] of parts) (key.startsWith('w:') ? m.words : m.ix).import(key.slice(2), data);
    m.slots = slots;
    slots.vocab.forEach((w, wid) => m.wordIds.set(w, wid));
    slots.keys.forEach((k, id) => {
      if (k !== null) m.byKey.set(k, id);
    });
    return m;
  }
}

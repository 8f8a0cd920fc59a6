// R15.1: what search compares. A term and a message match after both are decomposed (NFD), stripped
// of combining marks and lower-cased: 'rozpocet' finds 'Rozpočet', 'KAMPAN' finds 'kampaň'.
// Slovak letters decompose into one base letter plus marks, so folding one character at a time
// keeps a map from the folded text back to the original (the snippet highlights the original).

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

// Folding is the costly part of reading a message (NFD and a Unicode regex over the whole text:
// about a fifth of an index build, bench row 12b), and a chat's words repeat (Zipf): each raw word
// is folded once and remembered. A raw word is a run of letters, digits and marks, so a text typed
// decomposed ('c' + U+030C) is one word as before; its folded form is split by WORD again, so the
// words are exactly those of `fold(text).match(WORD)`. The memory is bounded: past FOLDED_MAX
// distinct words it starts again.
const RAW_WORD = /[\p{L}\p{N}\p{M}]+/gu;
const FOLDED_MAX = 50_000;
const folded = new Map<string, string[]>();

function foldWord(raw: string): string[] {
  let f = folded.get(raw);
  if (f === undefined) {
    f = fold(raw).match(WORD) ?? [];
    if (folded.size >= FOLDED_MAX) folded.clear();
    folded.set(raw, f);
  }
  return f;
}

/** The words of a text, folded; what the index stores and what a query is split into. */
export function terms(text: string): string[] {
  const raw = text.match(RAW_WORD);
  if (!raw) return [];
  const out: string[] = [];
  for (const w of raw) for (const t of foldWord(w)) out.push(t);
  return out;
}

export interface FoldedText {
  folded: string;
  /** For each UTF-16 unit of `folded`, the index in the original text it came from. */
  origin: number[];
}

/** Folds `text` keeping where each folded unit came from (snippet.ts maps hits back with it). */
export function foldWithMap(text: string): FoldedText {
  let folded = '';
  const origin: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const f = fold(ch);
    for (let k = 0; k < f.length; k++) origin.push(i);
    folded += f;
    i += ch.length;
  }
  return { folded, origin };
}

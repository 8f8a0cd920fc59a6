// R15.1: what search compares. A term and a message match after both are decomposed (NFD), stripped
// of combining marks and lower-cased: 'rozpocet' finds 'Rozpočet', 'KAMPAN' finds 'kampaň'.
// Slovak letters decompose into one base letter plus marks, so folding one character at a time
// keeps a map from the folded text back to the original (the snippet highlights the original).

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** The words of a text, folded; what the index stores and what a query is split into. */
export function terms(text: string): string[] {
  return fold(text).match(WORD) ?? [];
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

// R15.6: the text shown for a hit: a window of the message around its first match, with every
// match inside the window marked. A match is a word of the message that starts with a query word,
// after folding (normalise.ts) — the same rule the index uses — mapped back to the original text so
// the snippet shows 'Rozpočet' as written when 'rozpocet' was typed.
import { foldWithMap, terms } from './normalise.ts';

export interface SnippetPart {
  text: string;
  hit: boolean;
}

export interface Snippet {
  parts: SnippetPart[];
}

/** Characters of context before the first match (after it, the rest up to `width`). */
const BEFORE = 30;
const WIDTH = 120;

/** Ranges [start, end) in the original text of words starting with a query word. */
export function matchRanges(text: string, query: string): [number, number][] {
  const words = terms(query);
  if (words.length === 0) return [];
  const { folded, origin } = foldWithMap(text);
  const out: [number, number][] = [];
  for (const m of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    const best = words.reduce((len, q) => (w.startsWith(q) && q.length > len ? q.length : len), 0);
    if (best === 0) continue;
    const from = m.index;
    const to = from + best;
    const end = to < origin.length ? origin[to]! : text.length;
    out.push([origin[from]!, end]);
  }
  return out;
}

export function snippetOf(text: string, query: string): Snippet {
  const ranges = matchRanges(text, query);
  const first = ranges[0]?.[0] ?? 0;
  let start = Math.max(0, first - BEFORE);
  // Start at a word boundary, not in the middle of a word.
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    start = space >= 0 && first - space <= BEFORE + 15 ? space + 1 : start;
  }
  const end = Math.min(text.length, start + WIDTH);
  const parts: SnippetPart[] = [];
  const push = (t: string, hit: boolean) => {
    if (t) parts.push({ text: t, hit });
  };
  let at = start;
  for (const [a, b] of ranges) {
    if (b <= start || a >= end) continue;
    push(text.slice(at, Math.max(at, a)), false);
    push(text.slice(Math.max(a, at), Math.min(b, end)), true);
    at = Math.min(b, end);
  }
  push(text.slice(at, end), false);
  if (start > 0) parts.unshift({ text: '…', hit: false });
  if (end < text.length) parts.push({ text: '…', hit: false });
  return { parts };
}

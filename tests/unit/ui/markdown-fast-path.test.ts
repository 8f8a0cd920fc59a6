// renderMarkdown skips micromark for plain prose and caches the rest; its answer must stay exactly
// micromark's. Generated texts drawn mostly from the plain alphabet plus every character a markdown
// or GFM construct starts with are rendered both ways and compared.
import { describe, expect, it } from 'vitest';
import { isPlainProse, MARKDOWN_CACHE_SIZE, renderMarkdown, renderMarkdownUncached } from '../../../src/lib/markdown.ts';
import { mulberry32 as rng } from '../../../bench/prng.ts'; // seeded: the same texts on every run

const PLAIN_PIECES = ['a', 'Ž', 'ť', 'e\u0301', '7', '0', ' ', '  ', ',', '.', ';', ':', '?', '!', "'", '"', '(', ')', '%', '/', '-', 'www', 'http', 'SEO', 'kampaň'];
const HOSTILE_PIECES = ['*', '_', '`', '~', '[', ']', '<', '>', '&', '#', '\\', '|', '@', '=', '+', '\n', '\t', '1.', '2)', 'www.', '://', ':/', '&amp;', '😀', '\u00a0'];

function generated(count: number, seed: number): string[] {
  const next = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = 1 + Math.floor(next() * 14);
    let s = '';
    for (let j = 0; j < parts; j++) {
      const pool = next() < 0.9 ? PLAIN_PIECES : HOSTILE_PIECES;
      s += pool[Math.floor(next() * pool.length)]!;
    }
    out.push(s);
  }
  return out;
}

describe('markdown fast path', () => {
  it('gives micromark’s exact HTML for every generated text, plain or not', () => {
    const texts = generated(2000, 9);
    let plain = 0;
    for (const t of texts) {
      if (isPlainProse(t)) plain++;
      expect(renderMarkdown(t), JSON.stringify(t)).toBe(renderMarkdownUncached(t));
    }
    // Both paths are exercised: a good share of the texts are plain, and many are not.
    expect(plain).toBeGreaterThan(texts.length / 10);
    expect(plain).toBeLessThan(texts.length * 0.9);
  }, 60_000);

  it('sends markdown, autolinks, lists and multi-line text to the parser', () => {
    for (const t of ['1. bod', 'Prvý\ndruhý', '*tučné*', 'Pozri www.example.sk', 'Pozri https://example.sk', 'Píš na a@b.sk', 'Koniec ', ' Začiatok', '- bod', 'A &amp; B', 'Kód `x`', 'Ahoj 😀', 'x:/y']) {
      expect(isPlainProse(t), t).toBe(false);
    }
    for (const t of ['Kampaň rozpočet návrh.', 'Ďakujem, zajtra o 10:30 (asi).', 'SEO/PPC: 50 % "áno"']) {
      expect(isPlainProse(t), t).toBe(true);
      expect(renderMarkdown(t)).toBe(renderMarkdownUncached(t));
    }
  });

  it('keeps answering correctly past the cache bound (old entries are recomputed, not reused wrongly)', () => {
    const texts = generated(MARKDOWN_CACHE_SIZE * 2 + 50, 21).map((t, i) => `${t} *${i}*`);
    const first = texts.map((t) => renderMarkdown(t));
    const again = texts.map((t) => renderMarkdown(t));
    expect(again).toEqual(first);
    expect(first[0]).toBe(renderMarkdownUncached(texts[0]!));
    expect(first.at(-1)).toBe(renderMarkdownUncached(texts.at(-1)!));
  }, 60_000);
});

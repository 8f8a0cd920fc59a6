// R15.2 (issue 40): the message index's matches are exactly what the rule says — the messages in
// which every query word starts some folded word — checked against a plain scan of the texts over
// the bench corpus (inflected Slovak words with diacritics, figures, links), also after the index
// was changed in place (removes, re-indexed texts) and after a snapshot's round trip. The index files
// prefixes per distinct word and intersects per query word (index.ts); a scan cannot get that wrong.
import { describe, expect, it } from 'vitest';
import { MessageIndex } from '../../../sync/search/index.ts';
import { terms } from '../../../sync/search/normalise.ts';
import { SEARCH_QUERIES, searchCorpus } from '../../../bench/search-corpus.ts';

const QUERIES = [...SEARCH_QUERIES, 'a', 'k', 'ne', 'https example', 'kampan kampane', 'kampan xyz', 'zzz', '12', 'Ľudí', 'SÚŤAŽ'];

const wordsOf = new Map<string, string[]>();

/** The rule itself: every query word is the start of some word of the text. */
function scan(texts: Map<string, string>, query: string): string[] {
  const q = terms(query);
  if (q.length === 0) return [];
  const out: string[] = [];
  for (const [key, text] of texts) {
    let words = wordsOf.get(text);
    if (!words) wordsOf.set(text, (words = terms(text)));
    if (q.every((p) => words.some((w) => w.startsWith(p)))) out.push(key);
  }
  return out.sort();
}

function expectSameAsScan(ix: MessageIndex, texts: Map<string, string>): void {
  for (const q of QUERIES) {
    const found = ix.search(q, Number.MAX_SAFE_INTEGER);
    expect([...found.keys].sort(), q).toEqual(scan(texts, q));
    expect(found.total, q).toBe(found.keys.length);
  }
}

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

describe('R15.2 the message index', () => {
  it('R15.2 finds exactly the messages in which every query word starts a word (against a scan), after changes and a reload too', () => {
    const corpus = searchCorpus(2000);
    const texts = new Map(corpus.map((m) => [m.key, m.text]));
    const ix = new MessageIndex();
    corpus.forEach((m, i) => ix.add({ key: m.key, text: m.text, createdAt: at(i) }));
    expect(QUERIES.filter((q) => scan(texts, q).length > 0).length).toBeGreaterThan(QUERIES.length - 4); // the queries do find things
    expectSameAsScan(ix, texts);

    // Changed in place: a tenth removed, a tenth re-indexed with another message's text plus a new word.
    for (let i = 0; i < 2000; i += 10) {
      ix.remove(corpus[i]!.key);
      texts.delete(corpus[i]!.key);
      const edited = `${corpus[(i + 500) % 2000]!.text} Prešovčania`;
      ix.add({ key: corpus[i + 1]!.key, text: edited, createdAt: at(i + 1) });
      texts.set(corpus[i + 1]!.key, edited);
    }
    expectSameAsScan(ix, texts);
    expect(ix.search('presovc', 5).total).toBe(200);

    const { parts, slots } = ix.exportParts();
    const reloaded = MessageIndex.fromParts(JSON.parse(JSON.stringify(parts)) as [string, string][], JSON.parse(JSON.stringify(slots)) as typeof slots);
    expectSameAsScan(reloaded, texts);
    // A reloaded index keeps growing: a new message with a word never seen, and one with known words.
    reloaded.add({ key: 'n:1', text: 'Nová kampaň Xylofón', createdAt: at(3000) });
    texts.set('n:1', 'Nová kampaň Xylofón');
    expectSameAsScan(reloaded, texts);
    expect(reloaded.search('xylo kamp', 5).keys).toEqual(['n:1']);
  });

  it('R15.2 hits are the newest first, at most the limit, with the count of every match', () => {
    const ix = new MessageIndex();
    for (let i = 0; i < 5; i++) ix.add({ key: `k${i}`, text: `kampaň číslo ${i}`, createdAt: at(i) });
    expect(ix.search('kampan', 3)).toEqual({ keys: ['k4', 'k3', 'k2'], total: 5 });
  });
});

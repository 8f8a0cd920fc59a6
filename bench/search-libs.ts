// The two kept search libraries measured against each other on the same corpus (issue 40): each
// behind the same small adapter, configured for the same behaviour (folded terms, prefix matches,
// every query word must match); FlexSearch exactly as sync/search/index.ts uses it.
import MiniSearch from 'minisearch';
import { terms } from '../sync/search/normalise.ts';
import { MessageIndex } from '../sync/search/index.ts';
import { percentile } from './table.ts';
import { SEARCH_QUERIES, searchCorpus, type CorpusMessage } from './search-corpus.ts';

const MINISEARCH_OPTIONS = {
  idField: 'key',
  fields: ['text'],
  storeFields: [],
  tokenize: terms,
  // `terms` folds already; MiniSearch's default term processing would lower-case again.
  processTerm: (t: string) => t,
  searchOptions: { prefix: true, combineWith: 'AND' as const },
};

export interface SearchAdapter {
  add(m: CorpusMessage): void;
  search(q: string): unknown[];
  /** Serialized bytes (UTF-8 length of what would be persisted). */
  serialize(): number;
}

export function miniSearchAdapter(): SearchAdapter {
  const ms = new MiniSearch<CorpusMessage>(MINISEARCH_OPTIONS);
  return {
    add: (m) => ms.add(m),
    // Every match scored, then the 50 newest would be kept: MiniSearch has no limit to stop early.
    search: (q) => ms.search(q),
    serialize: () => bytesOf(JSON.stringify(ms)),
  };
}

const utf8 = new TextEncoder();
const bytesOf = (s: string) => utf8.encode(s).length;

/** FlexSearch as the app runs it: sync/search/index.ts, 50 newest hits of every match. */
export function flexSearchAdapter(): SearchAdapter {
  const ix = new MessageIndex();
  let i = 0;
  return {
    add: (m) => ix.add({ key: m.key, text: m.text, createdAt: new Date(Date.UTC(2026, 0, 1) + i++ * 60_000).toISOString() }),
    search: (q) => ix.search(q, 50).keys,
    serialize: () => {
      const { parts, slots } = ix.exportParts();
      return parts.reduce((n, [k, d]) => n + bytesOf(k) + bytesOf(d), bytesOf(JSON.stringify(slots)));
    },
  };
}

export interface LibraryFigures {
  build20kMs: number;
  build100kMs: number;
  queryP50Ms: number;
  queryP95Ms: number;
  bytes100k: number;
  addOneMs: number;
  /** Whether 'kampan' and 'rozpocet' found anything on 100k (prefix and folding work). */
  hits: Record<string, number>;
}

function build(make: () => SearchAdapter, corpus: CorpusMessage[]): { ix: SearchAdapter; ms: number } {
  const t0 = performance.now();
  const ix = make();
  for (const m of corpus) ix.add(m);
  return { ix, ms: performance.now() - t0 };
}

export function measureLibrary(make: () => SearchAdapter, corpus100k: CorpusMessage[], rounds = 10): LibraryFigures {
  const build20kMs = build(make, corpus100k.slice(0, 20_000)).ms;
  const { ix, ms: build100kMs } = build(make, corpus100k);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of SEARCH_QUERIES) {
      const t0 = performance.now();
      ix.search(q);
      times.push(performance.now() - t0);
    }
  }
  const extra = searchCorpus(1000, 4040).map((m) => ({ ...m, key: `n:${m.key}` }));
  const t0 = performance.now();
  for (const m of extra) ix.add(m);
  const addOneMs = (performance.now() - t0) / extra.length;
  return {
    build20kMs,
    build100kMs,
    queryP50Ms: percentile(times, 50),
    queryP95Ms: percentile(times, 95),
    bytes100k: ix.serialize(),
    addOneMs,
    hits: { kampan: ix.search('kampan').length, rozpocet: ix.search('rozpocet').length },
  };
}

// The two kept search libraries measured against each other on the same corpus (issue 40): each
// behind the same small adapter, configured for the same behaviour (folded terms, prefix matches,
// every query word must match); FlexSearch exactly as sync/search/index.ts uses it.
import MiniSearch from 'minisearch';
import { Index } from 'flexsearch';
import { terms } from '../sync/search/normalise.ts';
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
    search: (q) => ms.search(q),
    serialize: () => Buffer.byteLength(JSON.stringify(ms)),
  };
}

export function flexSearchAdapter(): SearchAdapter {
  const ix = new Index({ tokenize: 'forward', encode: terms });
  const ids: string[] = [];
  return {
    add: (m) => {
      ids.push(m.key);
      ix.add(ids.length - 1, m.text);
    },
    search: (q) => ix.search(q, { limit: 1_000_000 }),
    serialize: () => {
      let bytes = Buffer.byteLength(JSON.stringify(ids));
      ix.export((key: string, data: string) => {
        bytes += Buffer.byteLength(key) + Buffer.byteLength(data ?? '');
      });
      return bytes;
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
  /** Hits for 'kampan' and 'rozpocet' on 100k (both must be > 0: prefix and folding work). */
  hits: Record<string, number>;
}

function build(make: () => SearchAdapter, corpus: CorpusMessage[]): { ix: SearchAdapter; ms: number } {
  const t0 = performance.now();
  const ix = make();
  for (const m of corpus) ix.add(m);
  return { ix, ms: performance.now() - t0 };
}

export async function measureLibrary(make: () => SearchAdapter, corpus100k: CorpusMessage[], rounds = 10): Promise<LibraryFigures> {
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

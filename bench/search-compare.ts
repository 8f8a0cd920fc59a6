// `npx tsx bench/search-compare.ts`: MiniSearch against FlexSearch in Node on 100,000 messages
// (issue 40's choice; the numbers in bench/RESULTS.md). Row 12 of `npm run bench` keeps measuring
// the chosen one.
import { flexSearchAdapter, measureLibrary, miniSearchAdapter } from './search-libs.ts';
import { searchCorpus } from './search-corpus.ts';

const corpus = searchCorpus(100_000);
for (const [name, make] of [['minisearch', miniSearchAdapter], ['flexsearch', flexSearchAdapter]] as const) {
  const f = measureLibrary(make, corpus);
  console.log(name, JSON.stringify(f, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v)));
}

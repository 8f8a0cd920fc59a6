// Bundled by search-rows.ts (esbuild) into a blank Chromium page: the same measurement as in Node,
// on the page's CPU (throttled 4× for the mobile profile).
import { flexSearchAdapter, measureLibrary, miniSearchAdapter } from './search-libs.ts';
import { searchCorpus } from './search-corpus.ts';

(globalThis as unknown as { searchBench: unknown }).searchBench = (lib: 'flexsearch' | 'minisearch', count: number, rounds: number) =>
  measureLibrary(lib === 'flexsearch' ? flexSearchAdapter : miniSearchAdapter, searchCorpus(count), rounds);

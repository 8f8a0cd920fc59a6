// Row 12 (issue 40): the device's message search. The library the app uses (FlexSearch through
// sync/search/index.ts) against MiniSearch on the same 100,000 generated Slovak messages
// (search-corpus.ts), both in a blank Debian Chromium page with the mobile profile's 4× CPU
// throttling: query p95 (prefix, folded; the 50 newest of every match), build of 20,000, serialized
// size. The index runs in a worker in the app; here it runs on the page's thread, which CDP
// throttles the same way.
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../e2e/playwright.config.ts';
import { MOBILE } from './browser.ts';
import type { LibraryFigures } from './search-libs.ts';
import type { BenchRow } from './table.ts';

async function bundle(): Promise<string> {
  const out = await build({ entryPoints: ['bench/search-browser-entry.ts'], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'silent' });
  return out.outputFiles[0]!.text;
}

export async function measureInBrowser(count: number, rounds: number, cpuRate = MOBILE.cpuRate): Promise<Record<'flexsearch' | 'minisearch', LibraryFigures>> {
  const code = await bundle();
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  try {
    const out = {} as Record<'flexsearch' | 'minisearch', LibraryFigures>;
    for (const lib of ['flexsearch', 'minisearch'] as const) {
      // A fresh page per library: one's heap does not slow the other.
      const page = await browser.newPage();
      await page.addScriptTag({ content: code });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
      out[lib] = await page.evaluate(
        ([l, n, r]) => (globalThis as unknown as { searchBench: (l: string, n: number, r: number) => LibraryFigures }).searchBench(l, n, r),
        [lib, count, rounds] as const,
      );
      await page.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

export async function searchRows(quick: boolean, notes: string[]): Promise<BenchRow[]> {
  const count = quick ? 20_000 : 100_000;
  const { flexsearch: f, minisearch: m } = await measureInBrowser(count, quick ? 3 : 10);
  const n = `${count / 1000}k`;
  notes.push(
    `Row 12: ${n} generated Slovak messages in Chromium at 4× CPU; baseline MiniSearch (same folding, prefix, every word). ` +
      `Query p50 ${f.queryP50Ms.toFixed(1)} ms (MiniSearch ${m.queryP50Ms.toFixed(1)}); build of ${n} ${(f.build100kMs / 1000).toFixed(1)} s (${(m.build100kMs / 1000).toFixed(1)}); ` +
      `one more message ${f.addOneMs.toFixed(2)} ms (${m.addOneMs.toFixed(2)}). The index runs in a worker in the app, so none of this is main-thread time.`,
  );
  return [
    { row: '12a', figure: `search ${n} messages: query p95, mobile profile (baseline: MiniSearch)`, poradna: f.queryP95Ms, baseline: m.queryP95Ms, unit: 'ms', better: 'lower', goal: '≤ 50 ms', met: f.queryP95Ms <= 50 },
    { row: '12b', figure: 'search: index build of 20,000 messages, mobile profile (baseline: MiniSearch)', poradna: f.build20kMs, baseline: m.build20kMs, unit: 'ms', better: 'lower', goal: '≤ 5000 ms', met: f.build20kMs <= 5000 },
    { row: '12c', figure: `search: index size serialized, ${n} messages (baseline: MiniSearch)`, poradna: f.bytes100k / 2 ** 20, baseline: m.bytes100k / 2 ** 20, unit: 'MiB', better: 'lower', goal: 'report', met: true },
  ];
}

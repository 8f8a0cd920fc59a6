// Rows 1–7 in one browser session: builds the online-only baseline, opens the world (setup.ts) and
// measures the selected rows in an order that keeps each row's preconditions (sends and the
// offline catch-up change the data, so they come after the opens; row 5 is measured at setup).
import { resolve } from 'node:path';
import { openClient, signIn, waitForStored } from './browser.ts';
import { bigChatRows } from './rows-big-chat.ts';
import { openRows } from './rows-open.ts';
import { crossClientRows, ownBubbleRows } from './rows-send.ts';
import { catchUpRows, initialSyncRow } from './rows-sync.ts';
import { buildBaseline, openWorld } from './setup.ts';
import type { BenchRow } from './table.ts';

export interface BrowserBenchOptions {
  rows: Set<number>;
  quick: boolean;
  /** The Poradňa build (default BENCH_WEB_DIR or ./dist) and an already built baseline (default: build one). */
  webDir?: string;
  baselineDir?: string;
  log: (line: string) => void;
  /** Tables and lines printed (and appended) after the main table, e.g. row 4's per-hop breakdown. */
  notes: string[];
}

export async function browserRows(opts: BrowserBenchOptions): Promise<BenchRow[]> {
  const { rows: which, quick, log } = opts;
  const webDir = resolve(opts.webDir ?? process.env.BENCH_WEB_DIR ?? 'dist');
  let baselineDir = opts.baselineDir ?? process.env.BENCH_BASELINE_DIR;
  if (!baselineDir) {
    log('building the online-only baseline (VITE_ONLINE_ONLY=1)…');
    baselineDir = await buildBaseline();
  }
  const runs = quick ? 3 : 7;
  const out: BenchRow[] = [];
  const world = await openWorld(webDir, resolve(baselineDir), log);
  try {
    const { a, b, dataset } = world;
    const chat1k = `/app/chats/${dataset.chat1kId}`;
    if (which.has(5)) out.push(...(await initialSyncRow(a, dataset, world.sync)));
    if (which.has(1) || which.has(2)) {
      log(`rows 1–2: ${runs} interleaved opens per profile`);
      out.push(...(await openRows(a, b, chat1k, runs, which, opts.notes)));
    }
    if (which.has(7)) {
      log('row 7: the 10,000-message chat');
      out.push(...(await bigChatRows(a, b, `/app/chats/${dataset.chat10kId}`)));
    }
    if (which.has(3)) {
      const sends = quick ? 20 : 100;
      log(`row 3: ${sends} sends per build`);
      out.push(...(await ownBubbleRows(a, b, chat1k, sends)));
    }
    if (which.has(4)) {
      const sends = quick ? 10 : 100;
      log(`row 4: second clients of the same account, ${sends} sends per build`);
      const a2 = await openClient('poradna-2', a.baseUrl);
      const b2 = await openClient('baseline-2', b.baseUrl);
      try {
        await signIn(b2, dataset.email);
        await signIn(a2, dataset.email);
        await waitForStored(a2, dataset.userId, await world.serverMessages());
        const idOf = async (text: string) =>
          (await world.db.query<{ id: string }>('select id from public.messages where text = $1', [text])).rows[0]?.id;
        out.push(...(await crossClientRows(a, a2, b, b2, chat1k, sends, { ...world.deliveries, idOf, floors: { stack: world.poradna, db: world.db, userId: dataset.userId, tapDeliveries: world.tapDeliveries }, webDirs: { poradna: webDir, baseline: resolve(baselineDir) } }, opts.notes)));
      } finally {
        await a2.close();
        await b2.close();
      }
    }
    if (which.has(6)) {
      log('row 6: catch-up after 1,000 messages offline');
      out.push(...(await catchUpRows(a, world.db, dataset, world.sync)));
    }
  } finally {
    await world.close();
  }
  return out;
}

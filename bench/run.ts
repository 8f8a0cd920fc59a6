// `npm run bench [-- --rows 1,2,8] [--quick]`: measures the selected rows (default all), prints one
// table and, on a full run (all rows, not quick), appends it with the date and machine to
// bench/RESULTS.md. Row 8 needs a build (`npm run build`, or BENCH_WEB_DIR); rows 1–7 build the
// online-only baseline themselves (or take BENCH_BASELINE_DIR). --quick: fewer repetitions and
// sends, and no Lighthouse unless row 9 is asked for by --rows.
import { appendFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { startTestStack } from '../tests/helpers/stack.ts';
import { browserRows } from './browser-rows.ts';
import { bundleRows } from './bundle-size.ts';
import { lighthouseBenchRows, measureLighthouse } from './lighthouse.ts';
import { parseArgs } from './args.ts';
import { fanoutRow, insertRows } from './stack-throughput.ts';
import { capacityRows } from './capacity-row.ts';
import { renderTable, type BenchRow } from './table.ts';
import { slowLinkRows } from './slow-link.ts';
import { searchRows } from './search-rows.ts';
import { aiStreamRows } from './ai-stream-rows.ts';
import { attachmentRows } from './attachment-rows.ts';
import { photoBubbleRow } from './photo-bubble-row.ts';
import { buildBaseline } from './setup.ts';

const args = parseArgs(process.argv.slice(2));
const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const webDir = resolve(process.env.BENCH_WEB_DIR ?? 'dist');
const wants = (row: number) => args.rows.has(row);
const rows: BenchRow[] = [];
const notes: string[] = [];
const started = performance.now();

// The online-only baseline build, made once for every row that compares against it.
let baselineBuild: string | undefined = process.env.BENCH_BASELINE_DIR;
async function baselineDir(): Promise<string> {
  if (!baselineBuild) {
    log('building the online-only baseline (VITE_ONLINE_ONLY=1)…');
    baselineBuild = await buildBaseline();
  }
  return baselineBuild;
}

const browserSet = new Set([...args.rows].filter((r) => r >= 1 && r <= 7));
if (browserSet.size > 0) rows.push(...(await browserRows({ rows: browserSet, quick: args.quick, webDir, baselineDir: await baselineDir(), log, notes })));

if (wants(8)) {
  try {
    rows.push(...(await bundleRows(webDir)));
  } catch (err) {
    console.warn(`row 8 skipped (run npm run build first): ${(err as Error).message}`);
  }
}
if (wants(9) && (!args.quick || args.explicit)) {
  log('row 9: Lighthouse');
  rows.push(...lighthouseBenchRows(await measureLighthouse({ webDir, log, ...(args.quick ? { formFactors: ['mobile'] } : {}) })));
}
if (wants(10) && !args.only10c) {
  log('row 10: stack throughput');
  const stack = await startTestStack({ seed: false });
  try {
    rows.push(...(await insertRows(stack, notes)));
    rows.push(await fanoutRow(stack));
  } finally {
    await stack.destroy();
  }
}
if (wants(10)) {
  log('row 10c: many devices on one stack (issue 41)');
  rows.push(...(await capacityRows({ quick: args.quick, log, notes })));
}

if (wants(11)) {
  log('row 11: catch-up on a slow link');
  const stack = await startTestStack({ seed: false });
  try {
    rows.push(...(await slowLinkRows(stack, args.quick)));
  } finally {
    await stack.destroy();
  }
}

if (wants(12)) {
  log('row 12: search in messages (issue 40)');
  rows.push(...(await searchRows(args.quick, notes)));
}

if (wants(13)) {
  rows.push(...(await aiStreamRows({ webDir, baselineDir: await baselineDir(), quick: args.quick, log })));
}

if (wants(14)) {
  rows.push(...(await photoBubbleRow({ webDir, quick: args.quick, log, notes })));
  if (!args.only14a) rows.push(...(await attachmentRows({ quick: args.quick, log })));
}

const table = [renderTable(rows), ...notes].join('\n\n');
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
console.log(`\n${table}\n`);
log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (args.full) await appendFile('bench/RESULTS.md', `\n## ${new Date().toISOString()} — ${machine}\n\n${table}\n`);

// Line coverage of two `npm run coverage` runs side by side (issue 42: "coverage before and after, not
// lower"): per product folder, over every file each run counted and over the files both runs have
// (a file added since the first run changes the totals without any test changing), and the files
// whose coverage fell by more than two points.
//   node scripts/coverage-compare.mjs <before>/coverage/coverage-summary.json <after>/coverage/coverage-summary.json
// Each summary's paths are absolute; the project root is taken to be the folder above its `coverage/`.
import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

const FOLDERS = ['src', 'sync', 'sw', 'supabase'];

/** The summary's files as { 'sync/engine.ts': [covered, total] } (product folders only). */
function linesOf(summaryPath) {
  const root = dirname(dirname(summaryPath));
  const out = new Map();
  for (const [file, v] of Object.entries(JSON.parse(readFileSync(summaryPath, 'utf8')))) {
    if (file === 'total') continue;
    const rel = relative(root, file);
    if (FOLDERS.includes(rel.split('/')[0])) out.set(rel, [v.lines.covered, v.lines.total]);
  }
  return out;
}

function byFolder(files, only) {
  const sums = Object.fromEntries([...FOLDERS, 'all'].map((f) => [f, [0, 0]]));
  for (const [file, [covered, total]] of files) {
    if (only && !only.has(file)) continue;
    for (const key of [file.split('/')[0], 'all']) {
      sums[key][0] += covered;
      sums[key][1] += total;
    }
  }
  return sums;
}

const pct = ([covered, total]) => (total ? (100 * covered) / total : 100);
const cell = (s) => `${s[0].toLocaleString('en')}/${s[1].toLocaleString('en')} = ${pct(s).toFixed(1)} %`;

const [beforePath, afterPath] = process.argv.slice(2);
if (!beforePath || !afterPath) {
  console.error('usage: node scripts/coverage-compare.mjs <before coverage-summary.json> <after coverage-summary.json>');
  process.exit(2);
}
const before = linesOf(beforePath);
const after = linesOf(afterPath);
const both = new Set([...before.keys()].filter((f) => after.has(f)));
const [b, a, bb, ab] = [byFolder(before), byFolder(after), byFolder(before, both), byFolder(after, both)];
console.log(`files: before ${before.size}, after ${after.size}, in both ${both.size}\n`);
console.log('| folder | before | after | files in both: before | after |');
console.log('|---|---|---|---|---|');
for (const f of [...FOLDERS, 'all']) console.log(`| ${f} | ${cell(b[f])} | ${cell(a[f])} | ${cell(bb[f])} | ${cell(ab[f])} |`);
const fell = [...both]
  .map((f) => ({ f, was: before.get(f), is: after.get(f) }))
  .filter(({ was, is }) => pct(is) < pct(was) - 2)
  .sort((x, y) => pct(x.is) - pct(x.was) - (pct(y.is) - pct(y.was)));
console.log(`\nfiles whose line coverage fell by more than 2 points: ${fell.length}`);
for (const { f, was, is } of fell) console.log(`  ${f}: ${was[0]}/${was[1]} → ${is[0]}/${is[1]}`);

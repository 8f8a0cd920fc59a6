#!/usr/bin/env node
// Browser coverage of the journeys (issue 42, session 37): runs every journey with E2E_COVERAGE set,
// maps the V8 coverage of the pages through the builds' source maps to the lines of src/, sync/ and
// sw/ they ran, and writes coverage-e2e/coverage-summary.json (the shape `npm run coverage` writes,
// so scripts/coverage-compare.mjs compares two of them). With --vitest, the same lines are laid over
// Vitest's coverage-final.json too: coverage-merged/ holds "Vitest + browser", a line counted once
// if either ran it, over Vitest's own totals (and coverage-e2e/ then counts over those totals too).
//   node scripts/e2e-coverage.mjs [--no-run] [--root DIR] [--shards N] [--vitest | --vitest-file F] [-- playwright args]
// --vitest reads <root>/coverage/coverage-final.json (left by `npm run coverage`); --vitest-file another.
// --no-run converts what the last run left in e2e/artifacts/coverage-raw. --root runs and converts
// another checkout (an older commit with the collector applied by scripts/e2e-coverage/apply.mjs).
// Exits 1 when a journey failed, after writing the reports (a failed journey's pages still count).
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDirs, rawDir, runJourneys } from './e2e-coverage/run-journeys.mjs';
import { esbuildBase, layLines, linesByFolder, vitestBase, writeReports } from './e2e-coverage/summaries.mjs';
import { linesRun } from './e2e-coverage/v8-to-lines.mjs';

const FOLDERS = ['src', 'sync', 'sw'];
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'no-run': { type: 'boolean' }, root: { type: 'string' }, shards: { type: 'string' }, vitest: { type: 'boolean' }, 'vitest-file': { type: 'string' } },
});
const root = resolve(opts.root ?? '.');
const vitest = opts['vitest-file'] ? resolve(opts['vitest-file']) : opts.vitest ? join(root, 'coverage/coverage-final.json') : undefined;

let failed = false;
if (!opts['no-run']) {
  const t0 = Date.now();
  const codes = await runJourneys(root, { shards: Number(opts.shards ?? 2), args: positionals });
  failed = codes.some((c) => c !== 0);
  console.log(`\njourneys: ${((Date.now() - t0) / 1000).toFixed(0)} s, exit ${codes.join(', ')}`);
}

const run = await linesRun({ rawDir: rawDir(root), buildDirs: buildDirs(root), root, folders: FOLDERS });
console.log(`\n${run.pages} pages, ${run.scripts} distinct scripts; ${run.lines.size} product files ran in the browser`);
for (const journey of run.empty) console.log(`  a page of this journey reported no script: ${journey}`);
// By path: each stack serves on a port of its own, so one unmapped script shows under many URLs.
const unmapped = new Map();
for (const u of run.unmapped) unmapped.set(new URL(u.url).pathname, [...(unmapped.get(new URL(u.url).pathname) ?? []), u]);
for (const [path, seen] of unmapped) console.log(`  no source map, not counted: ${path} (${seen.length} version${seen.length > 1 ? 's' : ''}, ${seen[0].bytes} bytes)`);

const browser = vitest ? vitestBase(vitest, { zeroed: true, root, folders: FOLDERS }) : await esbuildBase(root, FOLDERS);
for (const file of layLines(browser, run.lines)) console.log(`  ran but not counted (not in the base): ${file}`);
writeReports(browser, join(root, 'coverage-e2e'));
const rows = { browser: linesByFolder(browser, root) };
if (vitest) {
  rows.vitest = linesByFolder(vitestBase(vitest), root);
  const merged = vitestBase(vitest);
  layLines(merged, run.lines);
  writeReports(merged, join(root, 'coverage-merged'));
  rows['vitest + browser'] = linesByFolder(merged, root);
}
const cell = (s) => (s ? `${s[0]}/${s[1]} = ${((100 * s[0]) / (s[1] || 1)).toFixed(1)} %` : '–');
console.log(`\n| lines | ${Object.keys(rows).join(' | ')} |\n|---|${Object.keys(rows).map(() => '---|').join('')}`);
for (const folder of [...FOLDERS, 'supabase']) console.log(`| ${folder} | ${Object.values(rows).map((r) => cell(r[folder])).join(' | ')} |`);
process.exit(failed ? 1 : 0);

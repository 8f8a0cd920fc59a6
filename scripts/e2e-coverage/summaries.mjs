// Browser lines as istanbul coverage over the same lines `npm run coverage` counts, and the reports.
// A bundle mapped back gives statements only where the minified code has them: lines the bundler
// dropped or folded would vanish from the totals, and files never bundled would be missing. So the
// lines run are laid over a base map instead: Vitest's own coverage-final.json (every statement of
// every file it counts, its hits kept for the merge or zeroed for the browser alone), or, without one,
// every product file compiled here with esbuild and read by the same converter with no function run
// (what Vitest does for a file no test loads). A statement counts as run when its first line was.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import convert from 'ast-v8-to-istanbul';
import { transform } from 'esbuild';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';
import { parseAstAsync } from 'vite';
import { isProductFile } from './v8-to-lines.mjs';

/** Product sources as `npm run coverage` includes them (vitest.config.ts), without declarations and tests. */
function productFiles(root, folders) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(path);
      } else if (/\.tsx?$/.test(e.name) && !/\.d\.ts$|\.(test|spec)\.tsx?$/.test(e.name)) out.push(path);
    }
  };
  for (const f of folders) walk(join(root, f));
  return out;
}

/** Every statement of the product files with no hits, compiled with esbuild (no Vitest run needed). */
export async function esbuildBase(root, folders) {
  const map = libCoverage.createCoverageMap({});
  for (const file of productFiles(root, folders)) {
    const source = readFileSync(file, 'utf8');
    const out = await transform(source, { loader: file.endsWith('.tsx') ? 'tsx' : 'ts', jsx: 'automatic', sourcemap: 'external', sourcefile: file, format: 'esm', target: 'es2022' });
    const sourceMap = JSON.parse(out.map);
    sourceMap.sources = [pathToFileURL(file).href];
    sourceMap.sourcesContent = [source];
    map.merge(await convert({ code: out.code, ast: parseAstAsync(out.code), sourceMap, wrapperLength: 0, coverage: { url: pathToFileURL(file).href, functions: [] } }));
  }
  return map;
}

/** Vitest's coverage-final.json as a map; `zeroed` keeps its statements and drops its hits. */
export function vitestBase(finalJson, { zeroed = false, root, folders } = {}) {
  const data = JSON.parse(readFileSync(finalJson, 'utf8'));
  const map = libCoverage.createCoverageMap({});
  for (const [file, fc] of Object.entries(data)) {
    if (folders && !isProductFile(root, folders, file)) continue;
    if (zeroed) {
      for (const k of Object.keys(fc.s)) fc.s[k] = 0;
      for (const k of Object.keys(fc.f)) fc.f[k] = 0;
      for (const k of Object.keys(fc.b)) fc.b[k] = fc.b[k].map(() => 0);
    }
    map.addFileCoverage(fc);
  }
  return map;
}

/**
 * Lays the browser's lines over `base` (changed in place): each statement whose first line ran gets at
 * least one hit. Only statements, and so lines, are filled: functions and branches keep the base's.
 * Returns the product files that ran but are not in the base (their lines are not counted).
 */
export function layLines(base, lines) {
  const known = new Set(base.files());
  const missing = [];
  for (const [file, run] of lines) {
    if (!known.has(file)) {
      missing.push(file);
      continue;
    }
    const fc = base.fileCoverageFor(file).data;
    for (const [k, loc] of Object.entries(fc.statementMap)) if (run.has(loc.start.line)) fc.s[k] = Math.max(fc.s[k], 1);
  }
  return missing;
}

/** coverage-summary.json and coverage-final.json (the shapes `npm run coverage` writes) and a text summary. */
export function writeReports(map, dir) {
  const context = libReport.createContext({ dir, coverageMap: map, defaultSummarizer: 'flat' });
  for (const name of ['json-summary', 'json', 'text-summary']) reports.create(name).execute(context);
}

/** Covered/total lines per top folder, relative to `root`. */
export function linesByFolder(map, root) {
  const sums = {};
  for (const file of map.files()) {
    const folder = relative(root, file).split('/')[0];
    const l = map.fileCoverageFor(file).toSummary().lines;
    sums[folder] ??= [0, 0];
    sums[folder][0] += l.covered;
    sums[folder][1] += l.total;
  }
  return sums;
}

// The journeys' raw V8 coverage (e2e/coverage-collect.ts) as the product's source lines it ran:
// each distinct bundle's block coverage merged over every page of every journey, then mapped through
// that bundle's source map to { '/abs/src/x.ts' => Set of lines run } (ranLines says why by
// mappings). A bundle is found by its content among the build folders' scripts (the hash in a
// chunk's name is not enough: builds A and B share names where they differ).
// @bcoe/v8-coverage comes with @vitest/coverage-v8 (it merges Vitest's own per-process coverage).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { mergeScriptCovs } from '@bcoe/v8-coverage';
import { SourceMapConsumer } from 'source-map-js';

/** Every .js under the build folders by the sha1 of its content. */
function indexBuilds(dirs) {
  const bySha = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.js')) bySha.set(createHash('sha1').update(readFileSync(path)).digest('hex'), path);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return bySha;
}

/** Each script's block coverage merged over all raw files (sha1 => ScriptCov), and a URL it had. */
function mergeRaw(rawDir) {
  const merged = new Map();
  const urls = new Map();
  const empty = [];
  let pages = 0;
  for (const name of readdirSync(rawDir)) {
    if (!name.endsWith('.json')) continue;
    pages += 1;
    const { journey, scripts } = JSON.parse(readFileSync(join(rawDir, name), 'utf8'));
    if (scripts.length === 0) empty.push(journey);
    for (const { sha1, url, functions } of scripts) {
      urls.set(sha1, url);
      const cov = { scriptId: '0', url: sha1, functions };
      const prev = merged.get(sha1);
      merged.set(sha1, prev ? mergeScriptCovs([prev, cov]) : cov);
    }
  }
  return { merged, urls, pages, empty };
}

/**
 * The original lines whose code ran, per absolute source path: every mapping of the bundle whose
 * generated position lies in a range V8 counted at least once (the innermost range holding it).
 * By mappings, not by the bundle's statements: minified, a whole run of source statements is one
 * expression statement, whose hits istanbul would give to its first line only.
 */
function ranLines(code, functions, map, mapDir) {
  const lineStart = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStart.push(i + 1);
  const points = [];
  new SourceMapConsumer(map).eachMapping((m) => {
    if (m.source != null && m.originalLine != null) points.push({ offset: lineStart[m.generatedLine - 1] + m.generatedColumn, source: m.source, line: m.originalLine });
  });
  points.sort((a, b) => a.offset - b.offset);
  // V8's ranges nest (a function's inside its parent's, a block's inside its function's): sorted by
  // start, outer first, a stack holds the ranges open at each point, the innermost on top.
  const ranges = functions.flatMap((f) => f.ranges).sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const open = [];
  const out = new Map();
  let next = 0;
  for (const p of points) {
    while (next < ranges.length && ranges[next].startOffset <= p.offset) {
      const r = ranges[next++];
      while (open.length && open.at(-1).endOffset <= r.startOffset) open.pop();
      open.push(r);
    }
    while (open.length && open.at(-1).endOffset <= p.offset) open.pop();
    if (!open.length || open.at(-1).count === 0) continue;
    const file = resolve(mapDir, map.sourceRoot ?? '', p.source);
    const run = out.get(file) ?? new Set();
    run.add(p.line);
    out.set(file, run);
  }
  return out;
}

/** Is `file` one of the product's own sources in `folders` of `root` (not a dependency)? */
export const isProductFile = (root, folders, file) => folders.some((f) => file.startsWith(join(root, f) + sep)) && !file.includes(`${sep}node_modules${sep}`);

/**
 * The lines of `folders` (under `root`) that the journeys ran, and what could not be mapped.
 * Returns { lines: Map<absolute path, Set<line>>, pages, empty: journeys of pages with no script,
 * scripts, unmapped: [{ url, bytes }] }.
 */
export async function linesRun({ rawDir, buildDirs, root, folders }) {
  const { merged, urls, pages, empty } = mergeRaw(rawDir);
  const builds = indexBuilds(buildDirs);
  const lines = new Map();
  const unmapped = [];
  for (const [sha1, cov] of merged) {
    const code = readFileSync(join(rawDir, 'sources', `${sha1}.js`), 'utf8');
    const built = builds.get(sha1);
    const mapPath = built && `${built}.map`;
    if (!mapPath || !existsSync(mapPath)) {
      unmapped.push({ url: urls.get(sha1), bytes: code.length });
      continue;
    }
    const map = JSON.parse(readFileSync(mapPath, 'utf8'));
    for (const [file, run] of ranLines(code, cov.functions, map, dirname(mapPath))) {
      if (!isProductFile(root, folders, file)) continue;
      const all = lines.get(file) ?? new Set();
      for (const line of run) all.add(line);
      lines.set(file, all);
    }
  }
  return { lines, pages, empty, scripts: merged.size, unmapped };
}

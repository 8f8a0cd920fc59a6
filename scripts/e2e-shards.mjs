// The journeys' shards balanced by time (issue 42). Playwright's `--shard=i/n` cuts the files, in
// name order, into runs of equal test counts (filterForShard in playwright/lib/runner): at two shards
// that gave 531 s against 685 s (session 33), because a journey takes 2 s or 70 s. Here each file gets
// its measured seconds (e2e/durations.json, written from a run's report by
// `node scripts/test-timings.mjs --write-e2e-durations`), and the files are dealt largest first to the
// shard with the least time so far (longest-processing-time first: within 4/3 of the best split).
// A file not in the table (a new journey) counts as the table's median until the table is written again.
// Each shard gets a Playwright test list (`--test-list`: one file per line, relative to the config's
// folder), so every file runs in exactly one shard, in Playwright's own order inside it.
import { readFileSync, readdirSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const DURATIONS_FILE = 'e2e/durations.json';

/** The journeys (`*.e2e.ts` under e2e/, as the config's testMatch), relative to e2e/, sorted. */
export function journeyFiles(dir = 'e2e') {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.e2e.ts') && !f.includes('node_modules'))
    .sort();
}

/** The measured seconds per journey file, or an empty table. */
export function readDurations(file = DURATIONS_FILE) {
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')).seconds ?? {};
}

/**
 * Splits `files` into `n` lists whose summed seconds are as even as the greedy deal makes them.
 * Deterministic: ties go to the lower shard, equal times to the file earlier by name.
 */
export function splitByTime(files, seconds, n) {
  const known = files.map((f) => seconds[f]).filter((s) => typeof s === 'number' && s >= 0).sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weight = (f) => (typeof seconds[f] === 'number' && seconds[f] >= 0 ? seconds[f] : median);
  const shards = Array.from({ length: n }, () => ({ files: [], seconds: 0 }));
  const order = [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  for (const f of order) {
    let best = shards[0];
    for (const s of shards) if (s.seconds < best.seconds) best = s;
    best.files.push(f);
    best.seconds += weight(f);
  }
  for (const s of shards) s.files.sort();
  return shards;
}

/** Writes one test list per shard under `dir`; returns their paths and expected seconds. */
export function writeShardLists(n, dir, { e2eDir = 'e2e', durations = readDurations() } = {}) {
  mkdirSync(dir, { recursive: true });
  return splitByTime(journeyFiles(e2eDir), durations, n).map((s, i) => {
    const path = join(dir, `e2e-shard-${i + 1}.txt`);
    writeFileSync(path, `# shard ${i + 1}/${n}: ~${Math.round(s.seconds)} s measured (scripts/e2e-shards.mjs)\n${s.files.join('\n')}\n`);
    return { path, seconds: s.seconds, files: s.files.length };
  });
}

/** The per-file seconds of a Playwright JSON report: each journey's first attempt, summed per file. */
export function durationsFromReport(report) {
  const out = {};
  const visit = (suite, file) => {
    const f = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const r of test.results ?? []) if (r.retry === 0) out[f] = (out[f] ?? 0) + r.duration / 1000;
    for (const child of suite.suites ?? []) visit(child, f);
  };
  for (const suite of report.suites ?? []) visit(suite, suite.file);
  return out;
}

/** Writes e2e/durations.json from the given reports (one per shard), rounded to 0.1 s. */
export function writeDurations(reports, file = DURATIONS_FILE) {
  const seconds = {};
  for (const r of reports) for (const [f, s] of Object.entries(durationsFromReport(r))) seconds[f] = Math.round(((seconds[f] ?? 0) + s) * 10) / 10;
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ note: 'Seconds per journey file (first attempts), from a run of npm test; scripts/e2e-shards.mjs deals the shards by them.', seconds: sorted }, null, 2)}\n`);
  return sorted;
}

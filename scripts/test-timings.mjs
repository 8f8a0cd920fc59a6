#!/usr/bin/env node
// Where the suite's time goes (issue 42): reads what `npm test` leaves in TIMINGS_DIR — each step's wall
// time (steps.json, written by scripts/test.mjs), Vitest's JSON report (per file: its tests and hooks,
// so a file's stack start in beforeAll counts, while its imports and test environment do not: in the
// unit group those are three quarters of the wall time) and Playwright's JSON report (per journey:
// every attempt's duration) — and prints the steps, the time per group and the slowest files.
// `node scripts/test-timings.mjs [--top N]` prints it again for the last run; docs/TESTING.md keeps a run.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DURATIONS_FILE, writeDurations } from './e2e-shards.mjs';

export const TIMINGS_DIR = 'test-results/timings';

const read = (file) => (existsSync(file) ? { data: JSON.parse(readFileSync(file, 'utf8')), at: statSync(file).mtime } : null);
const rel = (name) => name.replace(`${process.cwd()}/`, '');
const s = (n) => `${n.toFixed(1)} s`;

/** Per-file seconds from Vitest's JSON report, with the group (tests/<group>/) each belongs to. */
export function vitestFiles(report) {
  return report.testResults.map((t) => {
    const file = rel(t.name);
    return { file, group: file.split('/')[1] ?? '?', seconds: (t.endTime - t.startTime) / 1000, tests: t.assertionResults.length, ok: t.status === 'passed' };
  });
}

/** Per-file seconds from Playwright's JSON report: the sum of every attempt of every journey in the file. */
export function playwrightFiles(report) {
  const byFile = new Map();
  const visit = (suite, file) => {
    const f = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const r of test.results ?? []) {
          const e = byFile.get(f) ?? { file: `e2e/${f}`, group: 'e2e', seconds: 0, tests: 0, ok: true };
          e.seconds += r.duration / 1000;
          if (r.retry === 0) e.tests += 1;
          if (r.status !== 'passed' && r.status !== 'skipped') e.ok = false;
          byFile.set(f, e);
        }
    for (const child of suite.suites ?? []) visit(child, f);
  };
  for (const suite of report.suites ?? []) visit(suite, suite.file);
  return [...byFile.values()];
}

/**
 * The seconds of a Vitest run with no file running, from its JSON report (the run's start and each
 * file's first test to its last): before the first file (the groups' stacks starting, the first
 * worker and its imports), and between files afterwards. A file's own time leaves out its worker's
 * start, its imports and its environment, so these are where those costs show; 'one' is the seconds
 * with exactly one file running.
 */
export function vitestIdle(report) {
  const spans = report.testResults.map((t) => [(t.startTime - report.startTime) / 1000, (t.endTime - report.startTime) / 1000]).sort((a, b) => a[0] - b[0]);
  if (spans.length === 0) return { beforeFirst: 0, between: 0, one: 0, end: 0 };
  // Sweep the files' starts and ends in time order, counting how many run.
  const events = spans.flatMap(([a, b]) => [[a, 1], [b, -1]]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let running = 0;
  let at = spans[0][0];
  let between = 0;
  let one = 0;
  for (const [t, d] of events) {
    if (running === 0) between += t - at;
    else if (running === 1) one += t - at;
    running += d;
    at = t;
  }
  return { beforeFirst: spans[0][0], between, one, end: at };
}

const plain = (text) => String(text ?? '').replace(/\x1b\[[0-9;]*m/g, '');
const firstLine = (text) => plain(text).split('\n').find((l) => l.trim()) ?? '';
/**
 * A failed expectation's first line says only which matcher failed ('expect(locator).toBeVisible()
 * failed'); the lines that say what it looked for and saw (Locator, Expected, Received, Timeout,
 * the call log's last step) follow. Up to `n` non-empty lines, joined.
 */
const firstLines = (text, n = 5) =>
  plain(text)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, n)
    .join(' | ');

/** Each failed test in Vitest's JSON report, and a run that failed with none (an unhandled error). */
export function vitestFailures(report, label) {
  const out = [];
  for (const t of report.testResults ?? []) {
    for (const a of t.assertionResults ?? [])
      if (a.status === 'failed') out.push(`${rel(t.name)} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (t.status === 'failed' && !(t.assertionResults ?? []).some((a) => a.status === 'failed'))
      out.push(`${rel(t.name)}: ${firstLine(t.message) || 'failed outside its tests'}`);
  }
  if (report.success === false && out.length === 0) out.push(`${label}: failed with every test passing (an unhandled error or a crash; see its output)`);
  return out;
}

/** Lines a journey's failure gives CI beyond its error (at most this many, each cut at 300 characters). */
export const DIAGNOSTIC_LINES = 24;

/**
 * A journey's own account of a failure: a text attachment named 'diagnostics' (testInfo.attach), whose
 * lines CI shows under the failure. Its whole output is in the run's log, but CI shows only the end.
 */
function diagnosticLines(result) {
  const a = (result?.attachments ?? []).find((x) => x.name === 'diagnostics' && x.body);
  if (!a) return [];
  const text = Buffer.from(a.body, 'base64').toString('utf8');
  const lines = plain(text).split('\n').filter((l) => l.trim());
  const shown = lines.slice(-DIAGNOSTIC_LINES).map((l) => l.slice(0, 300));
  return lines.length > DIAGNOSTIC_LINES ? [`(the last ${DIAGNOSTIC_LINES} of ${lines.length} lines)`, ...shown] : shown;
}

/** Each journey whose last attempt failed (a retry that passed is flaky, and fails the run too). */
export function playwrightFailures(report) {
  const out = [];
  const visit = (suite, file, titles) => {
    const f = suite.file ?? file;
    const path = suite.title && suite.title !== f ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        const rs = test.results ?? [];
        const bad = rs.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
        if (bad.length === 0) continue;
        const last = rs.at(-1);
        const kind = last?.status === 'passed' ? 'flaky' : last?.status;
        const err = bad.at(-1).error;
        const at = err?.location ? ` (${rel(err.location.file)}:${err.location.line})` : '';
        const head = `e2e/${f} > ${[...path, spec.title].join(' > ')} ${test.projectName ? `[${test.projectName}] ` : ''}${kind}${at}: ${firstLines(err?.message)}`;
        out.push([head, ...diagnosticLines(bad.at(-1))].join('\n'));
      }
    for (const child of suite.suites ?? []) visit(child, f, path);
  };
  for (const suite of report.suites ?? []) visit(suite, suite.file, []);
  for (const e of report.errors ?? []) out.push(`playwright: ${firstLine(e.message)}`);
  return out;
}

export function summarizeTimings({ top = 10, dir = TIMINGS_DIR } = {}) {
  const lines = ['Where the time went (test-results/timings):'];
  const steps = read(`${dir}/steps.json`);
  if (steps) {
    lines.push(`  steps (${steps.at.toISOString()}, ${s(steps.data.totalSeconds)} in all):`);
    for (const st of steps.data.steps) lines.push(`    ${st.ok ? ' ' : '✖'} ${st.name.padEnd(16)} ${s(st.seconds).padStart(9)}${st.ok || st.exit === undefined ? '' : `  (exit ${st.exit})`}`);
  }
  const files = [];
  // vitest.json (every project but timing) and vitest-timing.json (the timing project, run alone last).
  for (const f of ['vitest.json', 'vitest-timing.json']) {
    const vitest = read(`${dir}/${f}`);
    if (vitest) files.push(...vitestFiles(vitest.data));
  }
  // One report per Playwright process: playwright.json, or playwright-<shard>.json when the journeys
  // ran as shards side by side (scripts/test.mjs).
  const reports = existsSync(dir) ? readdirSync(dir).filter((f) => /^playwright(-\d+)?\.json$/.test(f)) : [];
  for (const f of reports) {
    const pw = read(`${dir}/${f}`);
    if (pw) files.push(...playwrightFiles(pw.data));
  }
  // CI shows the end of the output: every failure is named here, where it is seen.
  const failed = [];
  for (const f of ['vitest.json', 'vitest-timing.json']) {
    const vitest = read(`${dir}/${f}`);
    if (vitest) failed.push(...vitestFailures(vitest.data, f));
  }
  for (const f of reports) {
    const pw = read(`${dir}/${f}`);
    if (pw) failed.push(...playwrightFailures(pw.data));
  }
  // A failed step that left no report ended before its reporter wrote it: a crash, a kill, an error
  // in the runner's own process (scripts/test.mjs prints that step's last lines after this summary).
  const reportOf = { vitest: 'vitest.json', 'vitest (timing, alone)': 'vitest-timing.json', 'vitest (timing, beside)': 'vitest-timing.json' };
  for (const st of steps?.data.steps ?? [])
    if (!st.ok && reportOf[st.name] && !existsSync(`${dir}/${reportOf[st.name]}`))
      failed.push(`${st.name}: ended without its report ${reportOf[st.name]} (a crash or a kill: its last lines follow)`);
  if (failed.length) {
    lines.push(`  failed (${failed.length}):`);
    for (const f of failed) {
      const [first, ...more] = f.split('\n');
      lines.push(`    ✖ ${first.slice(0, 600)}`, ...more.map((l) => `        ${l}`));
    }
  }
  if (files.length === 0) return lines.join('\n');
  const groups = new Map();
  for (const f of files) {
    const g = groups.get(f.group) ?? { files: 0, seconds: 0 };
    g.files += 1;
    g.seconds += f.seconds;
    groups.set(f.group, g);
  }
  const main = read(`${dir}/vitest.json`);
  if (main?.data.testResults?.length) {
    const idle = vitestIdle(main.data);
    lines.push(
      `  vitest: ${s(idle.beforeFirst)} before its first file, ${s(idle.between)} more with no file running and ${s(idle.one)} with one (worker starts, imports, environments), last file ended at ${s(idle.end)}`,
    );
  }
  lines.push('  per group (sum of file times; files of one group may run side by side):');
  for (const [g, v] of [...groups].sort((a, b) => b[1].seconds - a[1].seconds))
    lines.push(`    ${g.padEnd(8)} ${String(v.files).padStart(4)} files ${s(v.seconds).padStart(9)}`);
  lines.push(`  slowest ${top} files:`);
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, top))
    lines.push(`    ${s(f.seconds).padStart(8)}  ${f.file} (${f.tests} tests${f.ok ? '' : ', failed'})`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--write-e2e-durations')) {
    // The shards' table (scripts/e2e-shards.mjs) from the last run's Playwright reports.
    const reports = existsSync(TIMINGS_DIR) ? readdirSync(TIMINGS_DIR).filter((f) => /^playwright(-\d+)?\.json$/.test(f)) : [];
    if (reports.length === 0) throw new Error(`no Playwright report in ${TIMINGS_DIR}: run npm test first`);
    const seconds = writeDurations(reports.map((f) => JSON.parse(readFileSync(`${TIMINGS_DIR}/${f}`, 'utf8'))));
    console.log(`${DURATIONS_FILE}: ${Object.keys(seconds).length} journey files from ${reports.join(', ')}`);
  } else {
    const i = process.argv.indexOf('--top');
    console.log(summarizeTimings({ top: i > 0 ? Number(process.argv[i + 1]) : 25 }));
  }
}

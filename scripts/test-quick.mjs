#!/usr/bin/env node
// `npm run test:quick`: the inner loop (issue 42). Lint on the files changed since BASE, types
// (incremental: the second run reads tsc's build info instead of checking every file again), the Vitest
// files a change touches (a changed test file, or any test importing a changed file, through Vitest's
// own module graph: `vitest related`), and the browser journeys a change touches (a changed journey, or
// a journey importing a changed e2e helper). `npm test` stays the whole suite and is what CI runs.
// BASE: `--base <ref>`, else the upstream branch's merge base, else HEAD (uncommitted changes only).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const t0 = Date.now();
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const git = (...args) => spawnSync('git', args, { encoding: 'utf8' });
const lines = (out) => out.split('\n').map((l) => l.trim()).filter(Boolean);

function baseRef() {
  const given = arg('--base');
  if (given) return given;
  const upstream = git('merge-base', 'HEAD', '@{upstream}');
  return upstream.status === 0 ? upstream.stdout.trim() : 'HEAD';
}

function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n✖ ${name} failed (exit ${r.status ?? r.signal}) after ${secs}s`);
    process.exit(r.status || 1);
  }
  console.log(`✔ ${name} (${secs}s)`);
}

const base = baseRef();
const changed = [...new Set([...lines(git('diff', '--name-only', base).stdout), ...lines(git('ls-files', '--others', '--exclude-standard').stdout)])].filter(
  (f) => existsSync(f),
);
console.log(`test:quick — ${changed.length} file(s) changed since ${base === 'HEAD' ? 'the last commit' : base.slice(0, 10)}`);

const lintable = changed.filter((f) => /\.(ts|tsx|js|mjs)$/.test(f));
if (lintable.length) run('lint (changed files)', 'npx', ['eslint', '--max-warnings=0', '--no-warn-ignored', ...lintable]);
// TypeScript 7's compiler, as `npm test` (scripts/test.mjs says why).
run('typecheck', 'node', ['node_modules/typescript-7/bin/tsc', '-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/test-quick.tsbuildinfo']);
// Vitest: what a change can break. A changed file outside the product and its tests (docs, e2e, config)
// imports into no Vitest file; a change to vitest.config.ts or a test helper reaches its files through
// the graph like any other import.
// The seeded fuzz runs a sample here (its first 24 seeds, ~15 s on an idle machine against ~125 s for
// all 200): a change deep in sync/ reaches it through the graph, and the full 200 stay in `npm test`.
// SYNC_FUZZ_SEEDS set by the caller wins.
const fuzzSample = { SYNC_FUZZ_SEEDS: process.env.SYNC_FUZZ_SEEDS ?? '24' };
const code = changed.filter((f) => /\.(ts|tsx|mjs|js|sql)$/.test(f) && !f.startsWith('e2e/') && !f.startsWith('docs/'));
const tests = code.filter((f) => /\.test\.tsx?$/.test(f));
const sources = code.filter((f) => !tests.includes(f));
if (code.some((f) => f.startsWith('supabase/migrations/') || f === 'supabase/seed.sql')) {
  // A migration is read by every stack, not imported: the db group is what runs it.
  run('vitest db (a migration changed)', 'npx', ['vitest', 'run', '--project', 'db']);
}
if (tests.length) run(`vitest (${tests.length} changed test file(s))`, 'npx', ['vitest', 'run', ...tests], fuzzSample);
if (sources.length) run(`vitest related (${sources.length} changed file(s))`, 'npx', ['vitest', 'related', '--run', '--passWithNoTests', ...sources], fuzzSample);
if (!code.length) console.log('\nno product or test code changed: Vitest is skipped (npm test runs it all)');

// Journeys a change touches: a changed journey, or one importing a changed helper of e2e/.
const journeys = readdirSync('e2e').filter((f) => f.endsWith('.e2e.ts'));
const changedHelpers = changed.filter((f) => f.startsWith('e2e/') && !f.endsWith('.e2e.ts')).map((f) => f.slice('e2e/'.length).replace(/\.ts$/, ''));
const touched = journeys.filter((j) => {
  if (changed.includes(`e2e/${j}`)) return true;
  const source = readFileSync(`e2e/${j}`, 'utf8');
  return changedHelpers.some((h) => source.includes(`'./${h}.ts'`) || source.includes(`'./${h}'`));
});
if (touched.length) {
  run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  run(`e2e (${touched.length} touched)`, 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...touched.map((j) => `e2e/${j}`)]);
} else console.log('\nno journey touched: the browser step is skipped (npm test runs them all)');
console.log(`\ntest:quick passed in ${((Date.now() - t0) / 1000).toFixed(0)}s.`);

#!/usr/bin/env node
// `npm test`: the whole suite, the same locally and in CI (.ci/run). Fails on the first failing step.
// Steps: lint, typecheck, deno check of the edge functions and the PWA build (side by side), every
// Vitest group, and the Playwright journeys in Debian Chromium (installed with apt-get when missing and we are root), and the
// short chaos run.
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { summarizeTimings, TIMINGS_DIR } from './test-timings.mjs';

const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
const t0 = Date.now();
// Where the time goes (issue 42): every step's wall time, and Vitest's and Playwright's own per-file
// timings, land in TIMINGS_DIR; the slowest are printed at the end (or at the failing step).
mkdirSync(TIMINGS_DIR, { recursive: true });
const steps = [];

function finish(ok) {
  writeFileSync(`${TIMINGS_DIR}/steps.json`, JSON.stringify({ ok, totalSeconds: (Date.now() - t0) / 1000, steps }, null, 2));
  try {
    console.log(`\n${summarizeTimings({ top: 10 })}`);
  } catch (err) {
    console.log(`(no timing summary: ${err.message})`);
  }
}

function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = (Date.now() - started) / 1000;
  steps.push({ name, seconds, ok: r.status === 0 });
  if (r.status !== 0) {
    console.error(`\n✖ ${name} failed (exit ${r.status ?? r.signal}) after ${seconds.toFixed(1)}s`);
    finish(false);
    process.exit(r.status || 1);
  }
  console.log(`✔ ${name} (${seconds.toFixed(1)}s)`);
}

/**
 * Steps that do not wait on each other and each keep one core busy (eslint and tsc are single-threaded;
 * deno check and the build are short), run side by side: the batch takes as long as its slowest step
 * instead of their sum. Each step's own wall time is still recorded; any failure fails the run once all
 * of them have ended (their output is interleaved, each failure is named at the end).
 */
async function runTogether(batch) {
  if (batch.length === 1) return run(...batch[0]);
  const results = await Promise.all(
    batch.map(
      ([name, cmd, args, env = {}]) =>
        new Promise((done) => {
          const started = Date.now();
          console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
          const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
          const end = (status) => {
            const seconds = (Date.now() - started) / 1000;
            steps.push({ name, seconds, ok: status === 0, together: batch.map((b) => b[0]) });
            console.log(status === 0 ? `✔ ${name} (${seconds.toFixed(1)}s)` : `\n✖ ${name} failed (exit ${status}) after ${seconds.toFixed(1)}s`);
            done({ name, status });
          };
          child.on('error', () => end(-1));
          child.on('exit', (code, signal) => end(code ?? signal));
        }),
    ),
  );
  const failed = results.filter((r) => r.status !== 0);
  if (failed.length) {
    console.error(`\n✖ failed: ${failed.map((r) => r.name).join(', ')}`);
    finish(false);
    process.exit(1);
  }
}

/**
 * The Debian packages the browser steps need: Chromium, and for the push journey's notification click
 * (e2e/push-desktop.ts) a session D-Bus and the system python's dbus and gi modules. Installed with
 * apt-get when missing and we are root; otherwise the exact command is printed.
 */
function ensureBrowserPackages() {
  const need = [
    ['chromium', () => existsSync('/usr/bin/chromium')],
    ['dbus-daemon', () => existsSync('/usr/bin/dbus-daemon')],
    ['python3-dbus', () => spawnSync('/usr/bin/python3', ['-c', 'import dbus'], { stdio: 'ignore' }).status === 0],
    ['python3-gi', () => spawnSync('/usr/bin/python3', ['-c', 'import gi'], { stdio: 'ignore' }).status === 0],
  ];
  const missing = need.filter(([, present]) => !present()).map(([name]) => name);
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(`Debian packages missing for the browser tests: run \`sudo apt-get install -y ${missing.join(' ')}\` and retry.`);
    process.exit(1);
  }
  run(`install ${missing.join(', ')}`, 'sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')} >/dev/null`]);
}

// The static checks and the build read the sources only and write nothing the others read: together.
// (No `eslint --cache`: a clean clone, what CI runs, has no cache to gain from, and with type-aware
// rules a cached pass of one file can hide an error caused by a change in a file it imports.)
const statics = [];
if (want('lint')) statics.push(['lint', 'npx', ['eslint', '--max-warnings=0', '.']]);
if (want('typecheck')) statics.push(['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']]);
if (want('deno')) {
  const entries = readdirSync('supabase/functions', { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_') && existsSync(`supabase/functions/${d.name}/index.ts`))
    .map((d) => `supabase/functions/${d.name}/index.ts`);
  statics.push(['deno check', 'npx', ['deno', 'check', '--quiet', '--config', 'supabase/functions/deno.json', ...entries], { DENO_NO_UPDATE_CHECK: '1' }]);
}
if (want('build')) statics.push(['build', 'npx', ['vite', 'build', '--logLevel', 'warn']]);
// The two marked builds the safe-update journeys serve in turn (e2e/pwa-update-helpers.ts twoBuilds),
// made once here beside the others instead of twice in each of those journeys.
const updateBuilds = { a: resolve('test-results/web-a'), b: resolve('test-results/web-b') };
if (want('build') && want('e2e'))
  for (const [id, dir] of Object.entries(updateBuilds))
    statics.push([`build ${id}`, 'npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], { VITE_BUILD_ID: id }]);
if (statics.length) await runTogether(statics);
if (want('vitest'))
  run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${TIMINGS_DIR}/vitest.json`]);
if (want('e2e') && existsSync('e2e') && readdirSync('e2e').some((f) => f.endsWith('.e2e.ts'))) {
  ensureBrowserPackages();
  run('e2e', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    // Absolute: Playwright resolves a reporter's outputFile against the config's folder (e2e/).
    E2E_TIMINGS_FILE: resolve(TIMINGS_DIR, 'playwright.json'),
    ...(want('build') ? { E2E_WEB_A: updateBuilds.a, E2E_WEB_B: updateBuilds.b } : {}),
  });
}
// The short chaos run (scripts/chaos): 4 browser contexts of 2 accounts through a fault-injecting proxy,
// one kill -9 of the stack and one of PostgreSQL; fails on any lost, doubled or divergent message.
if (want('chaos') && existsSync('scripts/chaos/run.ts')) {
  ensureBrowserPackages();
  run('chaos (short)', 'node', ['--import', 'tsx', 'scripts/chaos/run.ts', '--short', '--seed', process.env.CHAOS_SEED ?? '1'], {
    ...(process.env.E2E_WEB_DIR ? { CHAOS_WEB_DIR: process.env.E2E_WEB_DIR } : {}),
  });
}
finish(true);
console.log(`\nAll test steps passed in ${((Date.now() - t0) / 1000).toFixed(0)}s.`);

// The journeys with E2E_COVERAGE set (issue 42, session 37): the builds they serve, then the
// Playwright shards side by side, each writing V8 coverage into one raw folder
// (e2e/coverage-collect.ts). Every build keeps its (hidden) source maps, which the conversion reads:
// the update journeys' two builds go to test-results/web-a|b instead of a temporary folder.
// `root` may be another checkout (an older commit with the collector applied, scripts/e2e-coverage/apply.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** The build folders whose scripts the journeys load, as the conversion looks them up. */
export const buildDirs = (root) => [join(root, 'dist'), join(root, 'test-results/web-a'), join(root, 'test-results/web-b')];
export const rawDir = (root) => join(root, 'e2e/artifacts/coverage-raw');

function build(root, outDir, env = {}) {
  const r = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`vite build --outDir ${outDir} failed (exit ${r.status ?? r.signal})`);
}

function shard(root, env, args) {
  return new Promise((done) => {
    const child = spawn('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('close', (code, signal) => done(code ?? signal));
  });
}

/** Builds, then runs every journey (or `args`' selection) in `shards` processes; resolves with the exit statuses. */
export async function runJourneys(root, { shards = 2, args = [] } = {}) {
  const raw = rawDir(root);
  rmSync(raw, { recursive: true, force: true });
  const [dist, webA, webB] = buildDirs(root);
  build(root, dist);
  build(root, webA, { VITE_BUILD_ID: 'a' });
  build(root, webB, { VITE_BUILD_ID: 'b' });
  const env = { E2E_COVERAGE: '1', E2E_COVERAGE_DIR: raw, E2E_WEB_A: webA, E2E_WEB_B: webB };
  // Playwright's own --shard (equal journey counts): an older checkout may lack scripts/e2e-shards.mjs.
  // A results folder per shard by --output, which every config obeys (ab4bd47's ignores E2E_OUTPUT_DIR):
  // in one shared folder, a shard ending deleted the other's trace files and failed two of its journeys.
  const runs = Array.from({ length: shards }, (_, i) =>
    shard(root, env, [...args, `--output=${join(root, `e2e/artifacts/results-cov-${i + 1}`)}`, ...(shards > 1 ? [`--shard=${i + 1}/${shards}`] : [])]),
  );
  return Promise.all(runs);
}

// Playwright journeys in Debian Chromium (never a downloaded browser) against a throwaway local stack.
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// E2E_COVERAGE=1 (issue 42): V8 coverage of every page the journeys open, for scripts/e2e-coverage.mjs.
// Loaded only then, so the default run does no extra work (e2e/coverage-collect.ts says why here).
if (process.env.E2E_COVERAGE) await import('./coverage-collect.ts');

// The omnibox's WebUI popup is switched off: new headless Chromium (156) builds it for every window, two
// chrome://omnibox-popup pages in a renderer of their own beside each journey's page, and they cost
// more than the page's own renderer: a context that signs in and opens a chat took 7.3-8.4 CPU-s of
// Chromium with them and 5.1-5.5 without (issue 42, session 43, docs/TESTING.md). Nothing of the web
// platform changes; the browser's own address bar is never shown headless.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
// What Playwright launches: Debian Chromium (/usr/bin/chromium, or $CHROMIUM_PATH) through e2e/chromium.sh,
// which merges Playwright's own --disable-features list with the one above (Chromium keeps only the
// last of a switch given twice, so passed as is ours would drop Playwright's), and run as root starts
// it without CAP_SYS_NICE, so it stays at the nice level `npm test` gives the journeys instead of
// raising its threads to -8. Lighthouse's Chromium, started without Playwright, goes through it too.
export const CHROMIUM_EXECUTABLE = fileURLToPath(new URL('./chromium.sh', import.meta.url));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  // A shard of `npm test` (scripts/test.mjs) gets a folder of its own: Playwright empties its outputDir
  // when it starts, which would delete the traces another shard is writing.
  outputDir: process.env.E2E_OUTPUT_DIR ?? './artifacts/results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // In CI a failed journey runs once more, to record its trace; a journey that then passes still
  // fails the run (failOnFlakyTests): a retry must never be what keeps the suite green.
  retries: process.env.CI ? 1 : 0,
  failOnFlakyTests: !!process.env.CI,
  // A guard against a hang, not a bound on speed (each wait has its own bound). Under the suite's load
  // a journey takes up to ~4× its quiet time: in the clean-clone run of d85f81e issue37-chat's item 4
  // took 41.5 s, send-tabs 36.3 s and attachments-stored 35.8 s of the 60 s this was, and
  // attachments-chatwoot's racing sends, 14.6 s quiet, had run past 60 s twice in CI's run of 8abd0a8.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // npm test also asks for the JSON report: its per-journey durations feed scripts/test-timings.mjs.
  reporter: process.env.E2E_TIMINGS_FILE ? [['list'], ['json', { outputFile: process.env.E2E_TIMINGS_FILE }]] : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 360, height: 640 },
    locale: 'sk-SK',
    timezoneId: 'Europe/Bratislava',
    // Recording a trace costs ~1.0-1.2 CPU-s a journey (DOM snapshots at every action: Chromium
    // -0.7-0.9, the worker -0.35, probe of one sign-in and chat open, 4 runs a side alternated, load
    // 13-18), ~150 CPU-s of a 145-journey run (issue 42). So CI records only a failed journey's
    // retry (where it fails again, that trace shows the failure; where it passes, the run still
    // fails as flaky and the first attempt left its screenshot and error-context.md). Outside CI
    // there is no retry, so a failure keeps the trace of its one run.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
});

// Opt-in V8 JS coverage of every page the journeys open (issue 42, session 37). Loaded by
// playwright.config.ts only when E2E_COVERAGE is set; without it this module is never imported.
//
// Why a listener on Playwright's client instrumentation and not a fixture: 52 journey files import
// `test` from '@playwright/test' directly, and a fixture would reach only the `page`/`context`
// fixtures, not the contexts journeys make themselves (browser.newContext in relay, handoff,
// push-delivery…; chromium.launchPersistentContext in the PWA journeys). Every context made through
// this process's Playwright, whichever way, passes runAfterCreateBrowserContext, and every
// context.close() passes runBeforeCloseBrowserContext before the pages go: the same hooks
// Playwright's own trace and screenshot recorder uses (playwright/lib/index.js, _setupArtifacts).
// The config is loaded in each worker too, so one import there reaches every journey, and no journey
// is edited. The cost: `_instrumentation` is not public API; if an upgrade removes it this module
// throws at once rather than silently collecting nothing.
//
// Written to E2E_COVERAGE_DIR (default e2e/artifacts/coverage-raw): one JSON per page,
// { journey, page, scripts: [{ url, sha1, functions }] } (V8's block coverage), and each distinct
// script source once as sources/<sha1>.js; scripts/e2e-coverage.mjs maps them through the builds'
// source maps. Sources are not written per page: the app's bundles are ~1 MB a page.
// Not caught: service workers and dedicated workers (page.coverage covers the page's own target only;
// Playwright gives no CDP session for a worker), pages a journey never closes through
// page.close()/context.close() (left to browser.close() at the worker's end), and a page's scripts
// run before its 'page' event reached us (a popup the app opens itself).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { test, type BrowserContext, type Page } from '@playwright/test';

type Listener = {
  runAfterCreateBrowserContext?: (context: BrowserContext) => Promise<void>;
  runBeforeCloseBrowserContext?: (context: BrowserContext) => Promise<void>;
};
type Instrumentation = { addListener(listener: Listener): void };

// The CommonJS exports object itself (an ESM import shows only what the module lexer detected): the
// same instance @playwright/test's `chromium` and its fixtures use.
const playwright = createRequire(import.meta.url)('playwright-core') as { _instrumentation?: Instrumentation };
const instrumentation = playwright._instrumentation;
if (typeof instrumentation?.addListener !== 'function')
  throw new Error('E2E_COVERAGE: playwright-core no longer exposes _instrumentation.addListener; e2e/coverage-collect.ts needs another hook');

const OUT = resolve(process.env.E2E_COVERAGE_DIR ?? join(import.meta.dirname, 'artifacts', 'coverage-raw'));
const SOURCES = join(OUT, 'sources');
mkdirSync(SOURCES, { recursive: true });

/** Coverage started on a page (resolves false if starting failed), until it is written. */
const started = new WeakMap<Page, Promise<boolean>>();
/** Which journey made a context: read when it is made, as a context may close after test.info() is gone. */
const journeyOf = new WeakMap<BrowserContext, string>();
const seenSources = new Set<string>();
let written = 0;

function currentJourney(): string {
  try {
    const info = test.info();
    return [relative(import.meta.dirname, info.file), ...info.titlePath.slice(1), `retry${info.retry}`].join(' › ');
  } catch {
    return 'outside a journey';
  }
}

const fileName = (journey: string) => {
  const hash = createHash('sha1').update(journey).digest('hex').slice(0, 8);
  return `${journey.replace(/[^\w.-]+/g, '_').slice(0, 120)}-${hash}-${process.pid}-${++written}.json`;
};

function watch(page: Page): void {
  if (started.has(page)) return;
  // Not awaited: the 'page' event handler cannot delay the journey, and CDP runs the coverage commands
  // before the navigation the journey sends after them on the same session.
  started.set(page, page.coverage.startJSCoverage({ resetOnNavigation: false }).then(() => true, () => false));
  // A page closed by itself (not through its context) would take its coverage along.
  const close = page.close.bind(page);
  page.close = async (options) => {
    await flush(page);
    return close(options);
  };
}

async function flush(page: Page): Promise<void> {
  const ok = started.get(page);
  if (!ok) return;
  started.delete(page);
  if (!(await ok) || page.isClosed()) return;
  const entries = await page.coverage.stopJSCoverage().catch(() => []);
  const out = [];
  for (const { url, source, functions } of entries) {
    if (!/^https?:/.test(url) || !source) continue;
    const sha1 = createHash('sha1').update(source).digest('hex');
    if (!seenSources.has(sha1)) {
      seenSources.add(sha1);
      const path = join(SOURCES, `${sha1}.js`);
      if (!existsSync(path)) writeFileSync(path, source);
    }
    out.push({ url, sha1, functions });
  }
  // Written even when empty: the conversion counts pages that reported no script (seen once, in a
  // persistent context's first page, cause not found).
  const journey = journeyOf.get(page.context()) ?? currentJourney();
  writeFileSync(join(OUT, fileName(journey)), JSON.stringify({ journey, page: page.url(), scripts: out }));
}

instrumentation.addListener({
  runAfterCreateBrowserContext: async (context) => {
    journeyOf.set(context, currentJourney());
    // A persistent context comes with its first page already open.
    for (const page of context.pages()) watch(page);
    context.on('page', watch);
  },
  runBeforeCloseBrowserContext: async (context) => {
    await Promise.all(context.pages().map(flush));
  },
});

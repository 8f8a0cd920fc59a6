// Debian Chromium through playwright-core with a persistent profile per client (incognito keeps
// IndexedDB in memory and would flatter the local-first build), the project's CHROMIUM_ARGS, and
// the network/CPU profiles the rows name, applied with CDP on the page's target.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../e2e/playwright.config.ts';
import { BENCH_PASSWORD } from './generate.ts';

export type Profile = 'loopback' | 'offline' | 'mobile';

/** "mobile profile" of issue 9: 150 ms RTT, 1.6 Mbps down (750 kbps up), 4× CPU throttling. */
export const MOBILE = {
  latency: 150,
  downloadThroughput: (1.6e6 / 8) | 0,
  uploadThroughput: (750e3 / 8) | 0,
  cpuRate: 4,
};

export interface Client {
  name: string;
  baseUrl: string;
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  close(): Promise<void>;
}

export async function openClient(name: string, baseUrl: string): Promise<Client> {
  const dir = await mkdtemp(join(tmpdir(), `poradna-bench-${name}-`));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
    viewport: { width: 360, height: 640 },
    locale: 'sk-SK',
    timezoneId: 'Europe/Bratislava',
    serviceWorkers: 'allow',
  });
  // tsx compiles the functions handed to page.evaluate with esbuild's keepNames, which calls a
  // __name helper the page does not have.
  await context.addInitScript('globalThis.__name ??= (f) => f;');
  // Element Timing entries are only delivered to observers (not performance.getEntries), so every
  // document registers one before its own scripts: the time text carrying `elementtiming` painted.
  await context.addInitScript(ELEMENT_TIMING_OBSERVER);
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  return {
    name,
    baseUrl,
    context,
    page,
    cdp,
    close: async () => {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function setProfile(c: Client, profile: Profile): Promise<void> {
  await c.context.setOffline(profile === 'offline');
  const mobile = profile === 'mobile';
  await c.cdp.send('Network.emulateNetworkConditions', {
    offline: profile === 'offline',
    latency: mobile ? MOBILE.latency : 0,
    downloadThroughput: mobile ? MOBILE.downloadThroughput : -1,
    uploadThroughput: mobile ? MOBILE.uploadThroughput : -1,
  });
  await c.cdp.send('Emulation.setCPUThrottlingRate', { rate: mobile ? MOBILE.cpuRate : 1 });
}

export async function signIn(c: Client, email: string): Promise<void> {
  const { page } = c;
  await page.goto(`${c.baseUrl}/auth/login`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Heslo', { exact: true }).fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
  await page.waitForURL(/\/app\/chats/, { timeout: 60_000 });
}

const ELEMENT_TIMING_OBSERVER = `
  globalThis.__elementPaints = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) globalThis.__elementPaints.push({ id: e.identifier, t: e.renderTime || e.loadTime });
    }).observe({ type: 'element', buffered: true });
  } catch {}
`;

/**
 * Full navigation to `path`, then two times since navigation start (ms): `paint`, when text marked
 * `elementtiming="<identifier>"` was first painted (Element Timing; whatever painted it, the live list
 * or the service worker's paint snapshot), and `live`, the app's own mark that its live view is shown.
 */
export async function openAndPaint(c: Client, path: string, identifier: string, mark: string, timeoutMs = 120_000): Promise<{ paint: number; live: number }> {
  const live = await openAndMark(c, path, mark, timeoutMs);
  const paint = await observedInPage(c, 'element', identifier, timeoutMs);
  // BENCH_DEBUG_NAV=1: where each open's time went (bench/README.md, row 1).
  if (process.env.BENCH_DEBUG_NAV) {
    const nav = await c.page.evaluate(async () => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const ms = (v: number) => Math.round(v);
      return {
        workerStart: ms(n.workerStart),
        fetchStart: ms(n.fetchStart),
        responseStart: ms(n.responseStart),
        responseEnd: ms(n.responseEnd),
        domInteractive: ms(n.domInteractive),
        domContentLoaded: ms(n.domContentLoadedEventStart),
        fcp: ms(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN),
        resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).slice(0, 8).map((r) => `${r.name.split('/').pop() ?? ''} ${ms(r.startTime)}–${ms(r.responseEnd)}`),
        // The saved snapshot's HTML (what the worker painted into this page, if it did) and the rule
        // subset saved with it (inlined instead of the whole stylesheet): their sizes.
        ...(await new Promise<{ snapshotChars: number; snapshotRulesChars: number }>((resolve) => {
          const none = { snapshotChars: -1, snapshotRulesChars: -1 };
          const req = indexedDB.open('poradna-worker');
          req.onerror = () => resolve(none);
          req.onsuccess = () => {
            const db = req.result;
            if (!db.objectStoreNames.contains('kv')) return resolve(none), db.close();
            const get = db.transaction('kv').objectStore('kv').get('list-snapshot');
            get.onsuccess = () => {
              const snap = get.result as { html?: string; rules?: string } | undefined;
              resolve({ snapshotChars: snap?.html?.length ?? 0, snapshotRulesChars: snap?.rules?.length ?? 0 });
              db.close();
            };
            get.onerror = () => (resolve(none), db.close());
          };
        })),
      };
    });
    console.error(`[nav ${c.name}] paint ${paint.toFixed(0)} ${JSON.stringify(nav)}`);
  }
  return { paint, live };
}

/**
 * The navigation floor of row 1b: a one-line inline page (no script of its own, no network: a data:
 * URL) opened from about:blank as the app is, under the client's current profile; answers the time
 * its text was painted since navigation start (Element Timing, as row 1 reads the app's first row).
 * A data: URL gets its own renderer process, as the first open of the app's origin from
 * about:blank does.
 */
export async function openFloor(c: Client, timeoutMs = 60_000): Promise<number> {
  await c.page.goto('about:blank');
  await c.page.goto(oneLineUrl(), { waitUntil: 'commit', timeout: timeoutMs });
  return observedInPage(c, 'element', 'floor', timeoutMs);
}

/** The one-line page of the navigation floor as a data: URL (its text carries Element Timing `floor`). */
export function oneLineUrl(): string {
  const html = `<!doctype html><meta name="viewport" content="width=device-width"><p elementtiming="floor">Poradňa ${Date.now()}</p>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/**
 * Row 1b‴'s floor: the list's saved frame as the worker paints it, but as a static page — the
 * snapshot page's HTML (its inline rule subset and the frame's rows) with every script tag taken out,
 * served by the bench from loopback (`url`, staticFrameServer) and opened from about:blank under the
 * client's CPU throttling with no network emulation (the worker's answer crosses no network either; a
 * data: URL of this size was measured slower than the app itself: the URL is decoded on the way). No
 * worker, no script, one request. Its first row's text painted (Element Timing `first-row`, which
 * the saved frame carries) is what painting this frame costs at all. The network emulation the
 * profile had is put back after.
 */
export async function openStaticFrame(c: Client, url: string, profile: Profile, timeoutMs = 60_000): Promise<number> {
  await c.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  try {
    await c.page.goto('about:blank');
    await c.page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    return await observedInPage(c, 'element', 'first-row', timeoutMs);
  } finally {
    await setProfile(c, profile);
  }
}

/**
 * Serves `html` at / on a free loopback port (row 1b‴); answers its address and its close. Pages
 * named in `more` are served at their path, each with its own extra headers (row 1b⁗).
 */
export async function staticFrameServer(
  html: string,
  more: Record<string, { html: string; headers?: Record<string, string> }> = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const page = more[req.url ?? '/'] ?? { html };
    res.writeHead(200, { ...page.headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Row 1b⁗: `url` opened in a new tab of the client's browser, as a launch of the installed app opens
 * a new window — a renderer of its own, nothing reused from a page before (from about:blank in the
 * client's own tab, whether the next page may reuse the blank page's renderer depends on the page
 * before it and on the new page's Cross-Origin-Opener-Policy, which the app sends: measured to move a
 * 25 KB page by ~50 ms either way). CPU throttled as the mobile profile; the network profile only
 * with `network` (the app's open; a loopback static page crosses no network, as the worker's answer
 * does not). Answers the Element Timing `identifier`'s time since navigation start; the tab is closed.
 */
export async function openInNewTab(c: Client, url: string, identifier: string, network: boolean, timeoutMs = 60_000): Promise<number> {
  const page = await c.context.newPage();
  try {
    const cdp = await c.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuRate });
    if (network)
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: MOBILE.latency,
        downloadThroughput: MOBILE.downloadThroughput,
        uploadThroughput: MOBILE.uploadThroughput,
      });
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    return await observedInPage({ ...c, page, cdp }, 'element', identifier, timeoutMs);
  } finally {
    await page.close();
  }
}

/** The snapshot page of `path` as served, with no script run and every script tag removed (openStaticFrame). */
export async function staticFrameOf(c: Client, path: string): Promise<string> {
  await c.cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
  try {
    await c.page.goto('about:blank');
    await c.page.goto(`${c.baseUrl}${path}`, { waitUntil: 'load' });
    const html = await c.page.content();
    if (!html.includes('id="list-snapshot"')) throw new Error('row 1b‴: the worker served no snapshot page');
    return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
  } finally {
    await c.cdp.send('Emulation.setScriptExecutionDisabled', { value: false });
  }
}

/**
 * The earliest time (ms since navigation start) of a performance entry of the page: an Element
 * Timing entry by identifier (its renderTime), or a mark by name. Waits in the page for it with a
 * PerformanceObserver, through one raw CDP Runtime.evaluate: Playwright's waitForFunction injects its
 * own script into a new document (~50 ms of main thread under 4× CPU throttling, measured in a trace),
 * which landed between the app's parse and its first frame and delayed the very paint row 1 times,
 * while the floor page had painted at commit, before it arrived.
 */
export async function observedInPage(c: Client, type: 'element' | 'mark', name: string, timeoutMs: number): Promise<number> {
  const expression = `new Promise((resolve) => {
    const type = ${JSON.stringify(type)}, name = ${JSON.stringify(name)};
    const t = (e) => (type === 'element' ? e.renderTime || e.loadTime : e.startTime);
    const match = (e) => (type === 'element' ? e.identifier === name : e.name === name);
    const po = new PerformanceObserver((list) => {
      const hits = list.getEntries().filter(match);
      if (hits.length) { po.disconnect(); resolve(Math.min(...hits.map(t))); }
    });
    po.observe({ type, buffered: true });
  })`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${c.name}: no ${type} '${name}' within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const res = await Promise.race([c.cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }), timeout]);
    if (res.exceptionDetails) throw new Error(`${c.name}: waiting for ${type} '${name}': ${res.exceptionDetails.text}`);
    return res.result.value as number;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Full navigation to `path` from a blank page, then the named performance mark's time since
 * navigation start (ms).
 * Marks are set after the frame that shows the content (src/data/perf-marks.ts).
 */
export async function openAndMark(
  c: Client,
  path: string,
  mark: string,
  timeoutMs = 120_000,
): Promise<number> {
  // Every open starts from a blank page, as a launch of the installed app does: the time is the new
  // document's alone, not the teardown of the page that was open before.
  await c.page.goto('about:blank');
  await c.page.goto(`${c.baseUrl}${path}`, { waitUntil: 'commit', timeout: timeoutMs });
  return observedInPage(c, 'mark', mark, timeoutMs);
}

/** Messages stored in the user's IndexedDB (read with a second connection; 0 when none yet). */
export async function storedMessages(c: Client, userId: string): Promise<number> {
  return c.page.evaluate(
    async (name) =>
      // Never open a database that does not exist yet: that would create it at version 1 under Dexie.
      !(await indexedDB.databases()).some((d) => d.name === name)
        ? 0
        : new Promise<number>((resolve) => {
            const req = indexedDB.open(name);
            req.onerror = () => resolve(0);
            req.onsuccess = () => {
              const db = req.result;
              if (!db.objectStoreNames.contains('messages')) {
                db.close();
                resolve(0);
                return;
              }
              const count = db.transaction('messages').objectStore('messages').count();
              count.onsuccess = () => {
                db.close();
                resolve(count.result);
              };
              count.onerror = () => {
                db.close();
                resolve(0);
              };
            };
          }),
    `poradna-sync-${userId}`,
  );
}

export async function waitForStored(
  c: Client,
  userId: string,
  atLeast: number,
  timeoutMs = 300_000,
): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const n = await storedMessages(c, userId);
    if (n >= atLeast) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`${c.name}: ${n} of ${atLeast} messages stored after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Row 5's end: the time until `atLeast` messages are stored, asking IndexedDB when the page's pull
 * says it caught up (sync/pull-marks.ts: a `poradna:pull:caught-up` measure, read from the page's
 * timeline with no IndexedDB request). A build that records the pull's measures is counted only then
 * (and once a second after a caught-up whose count fell short: the rest may come by realtime); one
 * that records none, once a second from the start.
 * Until 2026-11-28 row 5 counted the messages every 100 ms, and until 2026-11-29 once a second
 * throughout: each count opens a connection and counts the whole messages table (an O(rows) walk in
 * Chromium's backend) in a read transaction, and the pull's next page, whose write transaction
 * includes that table, waited for it: the waits grew with the table, to 350 ms a count at its end
 * (tx-start in the 2026-11-29 13:26 run, bench/RESULTS.md). The raw bulkPut it is compared with has
 * no such reader.
 */
export async function waitForSynced(c: Client, userId: string, atLeast: number, timeoutMs = 300_000): Promise<number> {
  const t0 = performance.now();
  let seen = 0;
  let countedAt = t0;
  for (;;) {
    const { caught, measured } = await c.page
      .evaluate(() => ({
        caught: performance.getEntriesByName('poradna:pull:caught-up').length,
        measured: performance.getEntriesByType('measure').some((e) => e.name.startsWith('poradna:pull:')),
      }))
      .catch(() => ({ caught: 0, measured: false }));
    const poll = (!measured || seen > 0) && performance.now() - countedAt >= 1000;
    if (caught > seen || poll) {
      seen = Math.max(seen, caught);
      countedAt = performance.now();
      if ((await storedMessages(c, userId)) >= atLeast) return performance.now() - t0;
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`${c.name}: fewer than ${atLeast} messages stored after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** DOM nodes and used JS heap (after a collection) through CDP Performance.getMetrics. */
export async function domAndHeap(c: Client): Promise<{ nodes: number; heapMb: number }> {
  await c.cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await c.cdp.send('Performance.getMetrics');
  const get = (n: string) => metrics.find((m) => m.name === n)?.value ?? NaN;
  return { nodes: get('Nodes'), heapMb: get('JSHeapUsedSize') / 2 ** 20 };
}

/** Bytes received over the wire (encoded) while `run` runs, from CDP Network events. */
export async function countBytes<T>(c: Client, run: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  let bytes = 0;
  const onFinished = (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
  };
  const onFrame = (e: { response: { payloadData: string } }) => {
    bytes += e.response.payloadData.length;
  };
  c.cdp.on('Network.loadingFinished', onFinished);
  c.cdp.on('Network.webSocketFrameReceived', onFrame);
  try {
    const result = await run();
    return { result, bytes };
  } finally {
    c.cdp.off('Network.loadingFinished', onFinished);
    c.cdp.off('Network.webSocketFrameReceived', onFrame);
  }
}

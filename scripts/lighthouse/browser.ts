// Debian Chromium for Lighthouse: started by us with a persistent throwaway profile (installability
// and the service worker are judged only outside incognito) and a remote-debugging port Lighthouse
// attaches to. Playwright connects over CDP only between Lighthouse runs (to sign in and to ask for
// Chromium's installability verdict) and disconnects before each run: while attached it pauses and
// emulates every new tab, which made Lighthouse's tab never paint (NO_FCP).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../e2e/playwright.config.ts';

export interface LighthouseBrowser {
  port: number;
  /** Signs the demo member in through the login form when no session is live. */
  signIn(): Promise<void>;
  /** Clears everything the origin stored (Lighthouse's own reset keeps localStorage and IndexedDB). */
  signOut(): Promise<void>;
  /** Chromium's installability errors for `path` (after the service worker is ready). */
  installabilityErrors(path: string): Promise<string[]>;
}

export const DEMO = { email: 'demo@poradna.test', password: 'poradna123' };

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitForDevtools(port: number, proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`Chromium exited with code ${proc.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('Chromium did not open its debugging port within 30 s');
}

async function withPage<T>(port: number, fn: (page: Page) => Promise<T>): Promise<T> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    try {
      return await fn(page);
    } finally {
      await page.close();
    }
  } finally {
    await browser.close(); // a connected browser only disconnects
  }
}

async function signInOn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/app/chats`);
  // A live session stays on /app/…; otherwise the guard sends us to the login form.
  await page.waitForURL(/\/(app|auth)\//);
  await page.getByLabel('E-mail').or(page.locator('a[href^="/app/chats/"]').first()).first().waitFor();
  if (!new URL(page.url()).pathname.startsWith('/app/')) {
    await page.getByLabel('E-mail').fill(DEMO.email);
    await page.getByLabel('Heslo', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
    await page.waitForURL(/\/app\//);
  }
  // The first sync fills IndexedDB; measuring before it lands would measure a loading list.
  await page.locator('a[href^="/app/chats/"]').first().waitFor({ timeout: 30_000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

async function closeBrowser(port: number): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const cdp = await browser.newBrowserCDPSession();
  await cdp.send('Browser.close').catch(() => {}); // the connection drops as it closes
}

/**
 * One measured run as the Lighthouse CLI makes it: `prepare` (sign in, or clear the origin) in one
 * Chromium, then `measure` in a Chromium started for it alone on the same profile (the session, the
 * installed service worker and IndexedDB kept on disk). In one long-lived Chromium every page of the
 * origin — the sign-in page and each earlier run's tab — lands in the same renderer process (the one
 * its service worker runs in), so each run's page started in a V8 heap holding the earlier pages'
 * documents (37 → 53 documents, 9 → 21 MB over three runs), and Lighthouse's own Debugger.enable on
 * that heap was a task of 87 → 266 ms before the navigation committed, which Lantern moved after
 * first paint at 4×: 173–689 ms of the reported blocking time (bench/lighthouse-lantern.ts, 2026-11-29).
 * The CLI (`lighthouse <url>`) launches a fresh Chrome per run, with no such heap.
 */
export async function measureInFreshChromium<T>(
  baseUrl: string,
  profile: string,
  prepare: (b: LighthouseBrowser) => Promise<void>,
  measure: (b: LighthouseBrowser) => Promise<T>,
): Promise<T> {
  await withChromium(baseUrl, profile, prepare);
  return withChromium(baseUrl, profile, measure);
}

export async function withChromium<T>(baseUrl: string, profile: string, fn: (b: LighthouseBrowser) => Promise<T>): Promise<T> {
  const port = await freePort();
  // Through the journeys' wrapper like every other Chromium of the suite: it keeps the nice level it
  // is given instead of raising its threads to -8 as root (e2e/chromium.sh).
  const proc = spawn(CHROMIUM_EXECUTABLE, [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--lang=sk-SK', 'about:blank'], {
    stdio: 'ignore',
    env: { ...process.env, CHROMIUM_PATH: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  });
  // A journey that times out never reaches the finally below (Playwright abandons the test's promise
  // and ends its worker), and Chromium, reparented to init, kept running with its debugging port open:
  // session 46's timed-out Lighthouse journey left one behind for the rest of the run. The worker's
  // exit takes it down.
  const killOnExit = () => proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await waitForDevtools(port, proc);
    return await fn({
      port,
      signIn: () => withPage(port, (page) => signInOn(page, baseUrl)),
      signOut: () =>
        withPage(port, async (page) => {
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('Storage.clearDataForOrigin', { origin: new URL(baseUrl).origin, storageTypes: 'all' });
          await cdp.detach();
        }),
      installabilityErrors: (path) =>
        withPage(port, async (page) => {
          await page.goto(`${baseUrl}${path}`);
          await page.evaluate(async () => {
            await navigator.serviceWorker.ready;
          });
          const cdp = await page.context().newCDPSession(page);
          const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
          await cdp.detach();
          return installabilityErrors.map((e) => e.errorId);
        }),
    });
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    // Browser.close first: a clean shutdown writes the profile's localStorage (the session) to disk
    // for the next Chromium on this profile (see measureInFreshChromium).
    await closeBrowser(port).catch(() => {});
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    process.removeListener('exit', killOnExit);
  }
}

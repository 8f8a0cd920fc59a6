// Shared steps of the safe-update journeys (pwa-update*.e2e.ts): two builds of the app, marked a and b
// on <html data-build>, served in turn by a stack restarted on one DATA_DIR; which build a page runs;
// and the browser finding the new build.
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Where one update journey keeps its files; `root` holds them all (remove it when done). */
export interface UpdateDirs {
  root: string;
  /** Build a (served first) and build b (the update). */
  webA: string;
  webB: string;
  /** The stack's DATA_DIR, kept across the restart so sessions and messages survive it. */
  dataDir: string;
  /** The browser profile (the device). */
  profile: string;
}

function buildVariant(outDir: string, id: string): void {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, VITE_BUILD_ID: id },
    stdio: 'ignore',
  });
}

/** A fresh root under the temp folder with both builds: E2E_WEB_A / E2E_WEB_B when given (made once for a run), else built here. */
export async function twoBuilds(prefix: string): Promise<UpdateDirs> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const webA = process.env.E2E_WEB_A || join(root, 'web-a');
  const webB = process.env.E2E_WEB_B || join(root, 'web-b');
  if (!process.env.E2E_WEB_A) buildVariant(webA, 'a');
  if (!process.env.E2E_WEB_B) buildVariant(webB, 'b');
  return { root, webA, webB, dataDir: join(root, 'data'), profile: join(root, 'profile') };
}

/** The build the page runs ('' while it is between documents, e.g. mid-reload). */
export const buildOf = (page: Page) => page.evaluate(() => document.documentElement.dataset['build'] ?? '').catch(() => '');

/**
 * Waits until the page runs `build`. On a timeout the error says where the update stood: the
 * registration's workers, the page's controller, the loop guard's stamp and the update gate's view
 * (gateState), plus `extra` (the journey's own counts). A bare "Received: 'a'" (pwa-update, stop 59's
 * CI run) told nothing of which step had not happened.
 */
export async function untilBuild(page: Page, build: string, timeout: number, extra: () => Promise<string> | string = () => ''): Promise<void> {
  try {
    await expect.poll(() => buildOf(page), { timeout, message: `the page runs build ${build}` }).toBe(build);
  } catch (err) {
    const workers = await page
      .evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration('/');
        const at = (w: ServiceWorker | null | undefined) => (w ? `${w.state} ${new URL(w.scriptURL).pathname}` : 'none');
        const guard = sessionStorage.getItem('poradna.sw-reloaded-at');
        return (
          `installing: ${at(reg?.installing)}; waiting: ${at(reg?.waiting)}; active: ${at(reg?.active)}; ` +
          `controller: ${at(navigator.serviceWorker.controller)}; reload guard: ${guard ? `${Date.now() - Number(guard)} ms ago` : 'never'}; ` +
          `the gate's last round (data-update): ${document.documentElement.dataset['update'] ?? 'none'}`
        );
      })
      .catch((e: unknown) => `registration not readable: ${String(e)}`);
    const where = `workers: ${workers}\ngate: ${await gateState(page)}\n${await extra()}`;
    // Also as the journey's `diagnostics`, which CI's summary prints under the failure (docs/TESTING.md).
    await test.info().attach('diagnostics', { contentType: 'text/plain', body: where });
    throw new Error(`${(err as Error).message}\n${where}`, { cause: err });
  }
}

/** Asks the browser to look for a new worker now (as its periodic or visibility check would), then waits until one is waiting. */
export async function findUpdate(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration('/'))?.update();
  });
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.waiting !== null), { timeout: 20_000 })
    .toBe(true);
}

/**
 * Waits until no reload can follow in this page, instead of watching it for a fixed time: the app's only
 * reload is the `controllerchange` handler of src/pwa/register-sw.ts, and a controllerchange needs a
 * worker other than the controlling one to activate. So once the page is controlled by the
 * registration's active worker, the served /sw.js is that same worker (update() found nothing new) and
 * no worker is installing or waiting, nothing is left that could reload the page again.
 */
export async function noReloadPending(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page
          .evaluate(async () => {
            const reg = await navigator.serviceWorker.getRegistration('/');
            const controller = navigator.serviceWorker.controller;
            if (!reg || !controller) return 'no controlling worker yet';
            await reg.update();
            if (reg.installing || reg.waiting) return 'a worker is installing or waiting';
            if (reg.active !== controller || controller.state !== 'activated') return 'the active worker does not control the page yet';
            return 'settled';
          })
          .catch((e: Error) => `between documents: ${e.message}`),
      { timeout: 30_000 },
    )
    .toBe('settled');
}

/**
 * Starts counting, in `page`, the update gate's "not safe" answers from other tabs: each is one recheck
 * of a waiting update that another tab held back. The channel is the gate's own (CHANNEL in
 * src/pwa/tab-gate.ts); a second BroadcastChannel object in the asking tab hears the other tabs' answers.
 * Returns a reader of the count so far.
 */
export async function countGateRefusals(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { gateRefusals: number; gateAsks: number };
    w.gateRefusals = 0;
    w.gateAsks = 0;
    new BroadcastChannel('poradna-update-gate').onmessage = (e: MessageEvent<{ type?: string; safe?: boolean; ask?: string }>) => {
      if (e.data.ask?.startsWith('diag-')) return; // gateState's own question and its answers
      if (e.data.type === 'safe' && e.data.safe === false) w.gateRefusals++;
      // The page's own gate asking (heard here: a channel object hears every other object of its name).
      if (e.data.type === 'safe?') w.gateAsks++;
    };
  });
  return () => page.evaluate(() => (window as unknown as { gateRefusals: number }).gateRefusals);
}

/** How many times the page's gate asked the other tabs since countGateRefusals began (for a failure message). */
export const gateAsks = (page: Page) => page.evaluate(() => (window as unknown as { gateAsks?: number }).gateAsks ?? 0).catch(() => -1);

/**
 * What an asking tab's update gate sees now, for a failure message: whether a worker waits, and what
 * the shared outbox still holds (a queued entry makes the tab's own answer "not safe", so it never
 * asks the others: src/pwa/register-sw.ts tryActivate, src/data/SyncProvider.tsx's blocker). In a clean-clone run of
 * session 35 `pwa-update-tabs` saw no refusal in 30 s once and said nothing of why.
 */
export function gateState(page: Page): Promise<string> {
  return page
    .evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration('/');
      const worker = `waiting worker: ${reg?.waiting ? reg.waiting.state : 'none'}`;
      const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('poradna-sync-'));
      if (!name) return `${worker}; no sync database`;
      const open = indexedDB.open(name);
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(new Error(String(open.error)));
      });
      const entries = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction('outbox').objectStore('outbox').getAll();
        req.onsuccess = () => resolve(req.result as unknown[]);
        req.onerror = () => reject(new Error(String(req.error)));
      });
      db.close();
      const shown = entries.map((e) => {
        const { key, attempts, lastError, claim } = e as { key: string; attempts: number; lastError: string | null; claim?: unknown };
        return JSON.stringify({ key, attempts, lastError, claim });
      });
      // Every open tab's own answer, asked as a tab's gate asks (src/pwa/tab-gate.ts): whether the asking
      // tab itself says "not safe" (so it never asks the others) or is safe and asks.
      const answers = await new Promise<boolean[]>((resolve) => {
        const ask = `diag-${Math.random()}`;
        const heard: boolean[] = [];
        const ch = new BroadcastChannel('poradna-update-gate');
        ch.onmessage = (e: MessageEvent<{ type?: string; ask?: string; safe?: boolean }>) => {
          if (e.data.type === 'safe' && e.data.ask === ask) heard.push(e.data.safe === true);
        };
        ch.postMessage({ type: 'safe?', ask });
        setTimeout(() => {
          ch.close();
          resolve(heard);
        }, 1600);
      });
      const said = answers.length ? answers.map((a) => (a ? 'safe' : 'not safe')).join(', ') : 'none';
      return `${worker}; outbox: ${shown.length ? shown.join(', ') : 'empty'}; the tabs' answers now: ${said}`;
    })
    .then(async (state) => `${state}; asked the other tabs ${await gateAsks(page)} times`)
    .catch((e: Error) => `state not readable: ${e.message}`);
}

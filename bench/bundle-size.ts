// Row 8: JavaScript needed for /app/chats and the whole precache, against the budget of
// 180 KB gzip as the baseline.
//   8a  from the Vite manifest: the entry chunk, the chunks it fetches at start when a session is
//       stored (supabase-js and the signed-in area: src/main.tsx) and everything those import
//       statically — what the browser must fetch and run before the list can paint
//   8b  the service worker's precache (raw bytes), every file it lists
//   8c  in Chromium: gzip bytes of every JS response while /app/chats loads signed in with a cold
//       cache and no service worker, until the list has painted and the idle preload of the chat,
//       specialists and settings chunks has run (skipped without /usr/bin/chromium)
// Standalone: `npx tsx bench/bundle-size.ts [dist]` prints the chunks of 8a and the idle preload.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './table.ts';

const BUDGET_KB = 180;
/** The pages src/routes/lazy-pages.tsx preloads once the signed-in list is up. */
/** What src/main.tsx fetches at start with a stored session, before the list can paint (lazy-supabase.ts, signed-in-loader.tsx). */
const SIGNED_IN_START = ['src/routes/signed-in.tsx']; // it imports src/supabase.ts statically
const IDLE_PRELOADED = ['src/pages/chat/ChatPage.tsx', 'src/pages/specialists/SpecialistsPage.tsx', 'src/pages/settings/SettingsPage.tsx'];

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ChunkSize {
  file: string;
  name: string;
  gzip: number;
}

async function gz(dist: string, path: string): Promise<number> {
  return gzipSync(await readFile(join(dist, path))).length;
}

/** Keys of `from` and every chunk they import statically, transitively. */
function staticClosure(manifest: Manifest, from: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

async function sizes(dist: string, manifest: Manifest, keys: Iterable<string>): Promise<ChunkSize[]> {
  const out: ChunkSize[] = [];
  for (const k of keys) {
    const c = manifest[k]!;
    if (!c.file.endsWith('.js')) continue;
    out.push({ file: c.file, name: c.src ?? c.name ?? k, gzip: await gz(dist, c.file) });
  }
  return out.sort((a, b) => b.gzip - a.gzip);
}

/** The chunks /app/chats needs before it paints, and those it fetches afterwards when idle. */
export async function chatsChunks(dist = 'dist'): Promise<{ critical: ChunkSize[]; idle: ChunkSize[] }> {
  const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  const missing = SIGNED_IN_START.filter((k) => !manifest[k]);
  if (missing.length > 0) throw new Error(`row 8a: ${missing.join(', ')} not in the manifest; update SIGNED_IN_START`);
  const critical = staticClosure(manifest, [...entries, ...SIGNED_IN_START]);
  const idleKeys = [...staticClosure(manifest, IDLE_PRELOADED.filter((k) => manifest[k]))].filter((k) => !critical.has(k));
  return { critical: await sizes(dist, manifest, critical), idle: await sizes(dist, manifest, idleKeys) };
}

const sum = (xs: ChunkSize[]) => xs.reduce((a, c) => a + c.gzip, 0);
const kb = (b: number) => b / 1024;

/** The chunks /auth/login needs before it paints: the entry and the login page with their static imports. */
export async function loginChunks(dist = 'dist'): Promise<ChunkSize[]> {
  const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  return sizes(dist, manifest, staticClosure(manifest, [...entries, 'src/pages/auth/LoginPage.tsx']));
}

export async function bundleRows(dist = 'dist'): Promise<BenchRow[]> {
  const { critical } = await chatsChunks(dist);
  const entryBytes = sum(critical);
  const loginBytes = sum(await loginChunks(dist));
  const sw = await readFile(join(dist, 'sw.js'), 'utf8');
  const urls = [...sw.matchAll(/"url":"\/?([^"]+)"/g)].map((m) => m[1]!);
  let precache = 0;
  for (const u of new Set(urls)) precache += (await readFile(join(dist, u))).length;
  const rows: BenchRow[] = [
    { row: '8a', figure: 'JS for /app/chats before the list paints (gzip)', poradna: kb(entryBytes), baseline: BUDGET_KB, unit: 'KB', better: 'lower', goal: '≤ 180 KB', met: kb(entryBytes) <= BUDGET_KB },
    { row: '8d', figure: 'JS for /auth/login before it paints (gzip)', poradna: kb(loginBytes), baseline: BUDGET_KB, unit: 'KB', better: 'lower', goal: 'report', met: true },
    { row: '8b', figure: `precache (${urls.length} files, raw)`, poradna: kb(precache), baseline: BUDGET_KB, unit: 'KB', better: 'lower', goal: 'report', met: true },
  ];
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(chromium)) {
    const measured = await measureInChromium(dist, chromium);
    rows.push({
      row: '8c',
      figure: 'JS fetched by /app/chats in Chromium, cold, incl. idle preload (gzip)',
      poradna: kb(measured.total),
      baseline: BUDGET_KB,
      unit: 'KB',
      better: 'lower',
      goal: '≤ 180 KB',
      met: kb(measured.total) <= BUDGET_KB,
    });
  } else {
    console.warn(`row 8c skipped: no Chromium at ${chromium}`);
  }
  return rows;
}

/**
 * Loads /app/chats signed in (the demo member) on a throwaway stack serving `dist`, cold cache and
 * service workers blocked (so nothing is fetched only to fill the precache), and sums the gzip size
 * of every JS response: those before the first conversation row is visible, and all of them once
 * the idle preload has had time to run.
 */
export async function measureInChromium(dist: string, executablePath: string): Promise<{ beforePaint: number; total: number; files: string[] }> {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } = await import('../e2e/playwright.config.ts');
  const { startTestStack } = await import('../tests/helpers/stack.ts');
  const stack = await startTestStack({ seed: true, webDir: resolve(dist) });
  // The wrapper (e2e/chromium.sh) starts `executablePath` with Playwright's and our feature switches merged.
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS, env: { ...process.env, CHROMIUM_PATH: executablePath } });
  try {
    // Sign in once to get a real session, then start over in a fresh context with only that session.
    const first = await browser.newContext({ baseURL: stack.url, serviceWorkers: 'block' });
    const login = await first.newPage();
    await login.goto('/auth/login');
    await login.getByLabel('E-mail', { exact: true }).fill('demo@poradna.test');
    await login.getByLabel('Heslo', { exact: true }).fill('poradna123');
    await login.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
    await login.waitForURL(/\/app\/chats/);
    const session = await login.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('sb-') && k.endsWith('-auth-token'));
      return key ? [key, localStorage.getItem(key)!] : null;
    });
    await first.close();
    if (!session) throw new Error('no session after sign-in');

    const ctx = await browser.newContext({ baseURL: stack.url, serviceWorkers: 'block' });
    await ctx.addInitScript(([k, v]) => localStorage.setItem(k!, v!), session);
    const page = await ctx.newPage();
    const responses: Promise<{ url: string; gzip: number; afterPaint: boolean }>[] = [];
    let painted = false;
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script' || !new URL(res.url()).pathname.endsWith('.js')) return;
      const before = !painted;
      responses.push(res.body().then((b) => ({ url: new URL(res.url()).pathname, gzip: gzipSync(b).length, afterPaint: !before })));
    });
    await page.goto('/app/chats');
    await page.getByTestId('conversation-row').first().waitFor({ state: 'visible', timeout: 30_000 });
    painted = true;
    await page.waitForTimeout(4000); // requestIdleCallback(timeout 3 s) fires the preload by then
    const all = await Promise.all(responses);
    await ctx.close();
    return {
      beforePaint: all.filter((r) => !r.afterPaint).reduce((a, r) => a + r.gzip, 0),
      total: all.reduce((a, r) => a + r.gzip, 0),
      files: all.map((r) => `${r.afterPaint ? 'after ' : 'before'} ${(r.gzip / 1024).toFixed(1).padStart(6)} KB ${r.url}`),
    };
  } finally {
    await browser.close();
    await stack.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2] ?? 'dist';
  const { critical, idle } = await chatsChunks(dist);
  const print = (title: string, xs: ChunkSize[]) => {
    console.log(`${title}: ${kb(sum(xs)).toFixed(1)} KB gzip`);
    for (const c of xs) console.log(`  ${kb(c.gzip).toFixed(1).padStart(6)} KB  ${c.file}  (${c.name})`);
  };
  print('before the list paints (entry + static imports)', critical);
  print('preloaded when idle (chat, specialists, settings)', idle);
  if (process.argv.includes('--chromium')) {
    const m = await measureInChromium(dist, process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
    console.log(`Chromium: ${kb(m.beforePaint).toFixed(1)} KB gzip before the list painted, ${kb(m.total).toFixed(1)} KB in all`);
    for (const f of m.files) console.log(`  ${f}`);
  }
}

// The browser benchmark's world: one stack serving the Poradňa build, a second stack on the SAME
// database and data directory (same keys) serving the online-only baseline build, the seeded data
// set, and one signed-in persistent Chromium profile per build. Row 5 (initial sync) and the full
// refetch of row 6 are measured here, on the local-first client's first sign-in.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import { startStackProcess, type ChildStack } from '../tests/helpers/stack-process.ts';
import { countBytes, openClient, signIn, waitForSynced, type Client } from './browser.ts';
import { generateDataset, type Dataset } from './generate.ts';
import { formatPullHops, readPullHops, type PullHops } from './sync-hops.ts';

const run = promisify(execFile);

export interface InitialSync {
  ms: number;
  bytes: number;
  rows: number;
  /** The pull's own hops (sync/pull-marks.ts), for rows 5′–5‴; null for a build without them. */
  hops: PullHops | null;
}

export interface BenchWorld {
  poradna: ChildStack;
  baseline: ChildStack;
  db: pg.Client;
  dataset: Dataset;
  a: Client;
  b: Client;
  sync: InitialSync;
  /** Each stack's realtime deliveries of message INSERTs, by message id (row 4's breakdown). */
  deliveries: { poradna: Map<string, DeliveryTiming>; baseline: Map<string, DeliveryTiming> };
  /** Adds a listener to the Poradňa stack's realtime onDelivery hook (row 4's floors); answers its removal. */
  tapDeliveries: (fn: (d: DeliveryTiming) => void) => () => void;
  /** Messages on the server for the account now. */
  serverMessages(): Promise<number>;
  close(): Promise<void>;
}

/** Builds the online-only baseline (VITE_ONLINE_ONLY=1) into a temporary folder, never ./dist. */
export async function buildBaseline(outDir = join(tmpdir(), 'poradna-bench-online-dist')): Promise<string> {
  await run('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, VITE_ONLINE_ONLY: '1' },
    maxBuffer: 16 * 2 ** 20,
  });
  return outDir;
}

/** Keeps the message INSERTs a stack's realtime server delivered to anyone, by id (bounded). */
function deliveryLog(): { map: Map<string, DeliveryTiming>; hook: (d: DeliveryTiming) => void; taps: Set<(d: DeliveryTiming) => void> } {
  const map = new Map<string, DeliveryTiming>();
  const taps = new Set<(d: DeliveryTiming) => void>();
  const hook = (d: DeliveryTiming) => {
    for (const t of taps) t(d);
    if (d.table !== 'messages' || d.type !== 'INSERT' || d.frames === 0 || typeof d.pk.id !== 'string') return;
    map.set(d.pk.id, d);
    if (map.size > 5000) map.delete(map.keys().next().value!);
  };
  return { map, hook, taps };
}

export async function openWorld(poradnaDir: string, baselineDir: string, log: (s: string) => void): Promise<BenchWorld> {
  const dp = deliveryLog();
  const db_ = deliveryLog();
  const tapDeliveries = (fn: (d: DeliveryTiming) => void) => {
    dp.taps.add(fn);
    return () => void dp.taps.delete(fn);
  };
  // Each stack in a process of its own, as the services it stands for run (stack-child.ts).
  const poradna = await startStackProcess({ overrides: { seed: false, webDir: poradnaDir, logLevel: 'quiet' } }, dp.hook);
  const closers: (() => Promise<void>)[] = [() => poradna.destroy()];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch((err: unknown) => console.warn('bench close:', err));
  };
  try {
    // Its own DATA_DIR (one running stack per directory) holding the same keys and authenticator
    // password, so tokens and PostgREST's login work against the shared database.
    const baselineData = await mkdtemp(join(tmpdir(), 'poradna-bench-baseline-'));
    for (const f of ['keys.json', 'secrets.json']) await copyFile(join(poradna.dataDir, f), join(baselineData, f));
    closers.push(() => rm(baselineData, { recursive: true, force: true }));
    const baseline = await startStackProcess({ overrides: { seed: false, webDir: baselineDir, databaseUrl: poradna.databaseUrl, logLevel: 'quiet' }, dataDir: baselineData }, db_.hook);
    closers.push(() => baseline.destroy());
    log(`stacks: Poradňa ${poradna.url}, baseline ${baseline.url} (same database)`);
    const dataset = await generateDataset(poradna);
    log(`data set: ${dataset.messages} messages in ${dataset.plan.conversations.length} conversations, generated in ${(dataset.generateMs / 1000).toFixed(1)} s`);
    const db = new pg.Client({ connectionString: poradna.databaseUrl });
    await db.connect();
    closers.push(() => db.end());
    const serverMessages = async () => Number((await db.query<{ n: string }>('select count(*) n from public.messages where account_id = $1', [dataset.accountId])).rows[0]!.n);
    const b = await openClient('baseline', baseline.url);
    closers.push(() => b.close());
    await signIn(b, dataset.email);
    const a = await openClient('poradna', poradna.url);
    closers.push(() => a.close());
    // Row 5 / row 6's full refetch: the first sign-in fills an empty IndexedDB.
    const total = await serverMessages();
    // BENCH_CPU_PROFILE=<file>: the page's main-thread CPU profile over the initial sync (row 5).
    const profile = process.env.BENCH_CPU_PROFILE;
    if (profile) {
      await a.cdp.send('Profiler.enable');
      await a.cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await a.cdp.send('Profiler.start');
    }
    const { result: ms, bytes } = await countBytes(a, async () => {
      await signIn(a, dataset.email);
      return waitForSynced(a, dataset.userId, total);
    });
    if (profile) await writeFile(profile, JSON.stringify((await a.cdp.send('Profiler.stop')).profile));
    // Row 5's breakdown, read before anything navigates the page away (sync-hops.ts).
    const sync = { ms, bytes, rows: total + dataset.plan.conversations.length, hops: await readPullHops(a) };
    log(`initial sync: ${sync.rows} rows in ${(ms / 1000).toFixed(1)} s, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
    if (process.env.BENCH_DEBUG_SYNC) for (const line of formatPullHops(sync.hops)) log(line);
    return { poradna, baseline, db, dataset, a, b, sync, serverMessages, close, deliveries: { poradna: dp.map, baseline: db_.map }, tapDeliveries };
  } catch (err) {
    await close();
    throw err;
  }
}

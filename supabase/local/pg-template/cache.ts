// Template clusters for throwaway stacks (issue 42): initdb + migrations + seed run once per content
// (key.ts) into a cache directory that every test process of this user shares; each stack then starts
// on a copy (adopt.ts) instead of migrating from empty. `npm start` never uses this (a DATA_DIR of
// its own is initialised and migrated as always).
// Invariants: a template directory appears only by rename(2) of a finished build, so no process ever
// sees half of one (two processes building at once: one rename wins, the other's build is dropped);
// a lock file keeps concurrent starters from building the same key twice, and a lock whose process is
// gone is taken over; a template is never started or written after its build (copies are).
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onFreePort } from '../free-port.ts';
import { migrate } from '../migrate.ts';
import { startEmbeddedPostgres } from '../postgres.ts';
import { alive } from '../process-registry.ts';
import type { ClusterTemplate } from './adopt.ts';
import { templateKey, type KeyInputs } from './key.ts';

export interface CachedTemplate extends ClusterTemplate {
  key: string;
  /** This call built it (false: it was in the cache, or another process built it meanwhile). */
  built: boolean;
}

export interface TemplateOptions extends KeyInputs {
  /** Default: <OS temp dir>/poradna-pg-templates-<uid>. */
  cacheDir?: string;
  log?: (line: string) => void;
}

/** How long a starter waits for another process's build before building its own (a build takes seconds). */
const WAIT_FOR_OTHER_MS = 300_000;
/** Cache entries older than this are deleted after a build (the key holds the day: a new one daily). */
const KEEP_MS = 2 * 24 * 3600_000;

export function defaultCacheDir(): string {
  return join(tmpdir(), `poradna-pg-templates-${userInfo().uid}`);
}

/** The cache directory cannot be used; the stack falls back to initdb + migrations (stack.ts). */
export class UnusableCacheDir extends Error {}

/** The shared temp dir is everyone's: use the cache only when it is our own directory, not a link. */
async function ownDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new UnusableCacheDir(`template cache ${dir}: ${(err as Error).message}`);
  }
  const st = await lstat(dir);
  if (!st.isDirectory() || st.uid !== userInfo().uid) throw new UnusableCacheDir(`template cache ${dir} is not a directory of this user`);
}

async function readTemplate(dir: string): Promise<ClusterTemplate | undefined> {
  try {
    const meta = JSON.parse(await readFile(join(dir, 'template.json'), 'utf8')) as { password: string; builtAt: string };
    return { pgDir: join(dir, 'pg'), password: meta.password, builtAt: meta.builtAt };
  } catch {
    return undefined;
  }
}

async function takeLock(lock: string): Promise<boolean> {
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
  // A holder that died mid-build (killed test run) leaves its lock: take it over. An empty file is a
  // lock being written this instant; leave it.
  if (holder > 0 && !alive(holder)) await rm(lock, { force: true });
  return false;
}

async function build(cacheDir: string, key: string, opts: TemplateOptions): Promise<boolean> {
  const work = await mkdtemp(join(cacheDir, `.build-${key}-`));
  try {
    const server = await onFreePort((port) => startEmbeddedPostgres(work, port, opts.log ?? (() => undefined)));
    let builtAt: string;
    let walSegment: string;
    try {
      await migrate(server.url, {
        seed: opts.seed,
        authenticatorPassword: randomBytes(18).toString('base64url'),
        ...(opts.migrationsDir ? { migrationsDir: opts.migrationsDir } : {}),
        ...(opts.seedFile ? { seedFile: opts.seedFile } : {}),
      });
      // The moment a fresh start's data is "as of": its seed ran last, in one transaction whose now()
      // every relative time in it (now() - '2 days') counts from. A copy moves that moment to its own now.
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      builtAt = (
        await c.query<{ t: string }>(
          // As text: microseconds kept (a JS Date would round them away and put the copy's seed a
          // fraction of a millisecond in its future).
          `select coalesce((select seeded_at from local_stack.seeded), (select max(applied_at) from local_stack.schema_migrations), now())::text as t`,
        )
      ).rows[0]!.t;
      // A smaller copy: the build's WAL is not needed by a cleanly stopped cluster, only the segment
      // of its shutdown checkpoint. Switch to a new (zero-filled) segment and checkpoint there; the
      // shutdown checkpoint follows in the same segment, the older ones are deleted below, and the
      // copy writes the zeros as holes (adopt.ts: cp --sparse). 16 MB less written per stack.
      await c.query('select pg_switch_wal()');
      await c.query('checkpoint');
      walSegment = (await c.query<{ f: string }>('select pg_walfile_name(pg_current_wal_insert_lsn()) as f')).rows[0]!.f;
      await c.end();
    } finally {
      await server.stop(); // fast shutdown: a checkpoint, a clean cluster to copy
    }
    const walDir = join(work, 'pg', 'pg_wal');
    const segments = (await readdir(walDir)).filter((n) => /^[0-9A-F]{24}$/.test(n));
    if (!segments.includes(walSegment)) throw new Error(`template build: WAL segment ${walSegment} of the last checkpoint is missing`);
    for (const n of segments) if (n !== walSegment) await rm(join(walDir, n));
    const { password } = JSON.parse(await readFile(join(work, 'db.json'), 'utf8')) as { password: string };
    await rm(join(work, 'db.json'));
    await writeFile(join(work, 'template.json'), JSON.stringify({ key, builtAt, password }), { mode: 0o600 });
    try {
      await rename(work, join(cacheDir, key));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return false; // another process's build won
      throw err;
    }
    return true;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Old days' templates and builds of processes that died. Never the current key's. */
async function prune(cacheDir: string, keep: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(cacheDir)) {
    if (name.startsWith(keep)) continue;
    const path = join(cacheDir, name);
    const st = await stat(path).catch(() => undefined);
    if (st && now - st.mtimeMs > KEEP_MS) await rm(path, { recursive: true, force: true });
  }
}

/** The template for these inputs, built first if no process has built it yet. */
export async function ensureTemplate(opts: TemplateOptions): Promise<CachedTemplate> {
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  await ownDir(cacheDir);
  const key = await templateKey(opts);
  const dir = join(cacheDir, key);
  const lock = join(cacheDir, `${key}.lock`);
  const deadline = Date.now() + WAIT_FOR_OTHER_MS;
  let built = false;
  for (;;) {
    const ready = await readTemplate(dir);
    if (ready) return { ...ready, key, built };
    // Past the deadline the other build is taken to be stuck: build without the lock (the rename
    // still decides which finished build is the template).
    const mine = Date.now() <= deadline && (await takeLock(lock));
    if (mine || Date.now() > deadline) {
      try {
        if (!(await readTemplate(dir))) {
          built = await build(cacheDir, key, opts);
          if (built) await prune(cacheDir, key);
        }
      } finally {
        if (mine) await rm(lock, { force: true });
      }
      continue;
    }
    // Another process is building this key. Its end is a rename in another process: nothing to
    // await but the file system, so look again shortly.
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The key of a template cluster: a hash of everything that shapes what initdb + migrate() + seed leave
// in a new cluster. Invariant: two inputs that could give different clusters give different keys, so
// a cached template is never stale; an input missed here would hand tests a cluster the migrations
// no longer make. Covered: the PostgreSQL binaries (their --version and the package's version),
// initdb's options and locale, the user the server runs as, every SQL file under supabase/local (the
// bootstrap, auth, realtime and storage schemas migrate() applies), every migration (name and text),
// the seed when seeding, the code that runs them (migrate.ts, postgres.ts, this folder), and the UTC
// day (the realtime janitor names partitions by day, so a copy on another day would differ).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { listMigrations, repoRoot } from '../migrate.ts';
import { bestLocale, initdbOptions, postgresBinaries } from '../postgres.ts';

/** Bumped when the layout of a template directory or the adoption of a copy changes incompatibly. */
const FORMAT = 1;

export interface KeyInputs {
  seed: boolean;
  /** Defaults: the repository's (tests point these at altered copies). */
  migrationsDir?: string;
  seedFile?: string;
  /** The UTC day, YYYY-MM-DD (default today). */
  day?: string;
}

let binaryVersion: string | undefined;
function postgresVersion(): string {
  // One spawn per process: the binaries do not change under a running process.
  binaryVersion ??= execFileSync(postgresBinaries.postgres, ['--version'], { encoding: 'utf8' }).trim();
  return binaryVersion;
}

async function sqlFilesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('.sql')) out.push(join(e.parentPath, e.name));
  return out.sort();
}

export async function templateKey(inputs: KeyInputs): Promise<string> {
  const local = join(repoRoot, 'supabase', 'local');
  const migrationsDir = inputs.migrationsDir ?? join(repoRoot, 'supabase', 'migrations');
  const seedFile = inputs.seedFile ?? join(repoRoot, 'supabase', 'seed.sql');
  const h = createHash('sha256');
  const part = (label: string, text: string | Buffer) => {
    h.update(`${label}\0${text.length}\0`);
    h.update(text);
  };
  part('format', String(FORMAT));
  part('postgres', postgresVersion());
  part('initdb', initdbOptions(bestLocale()).join(' '));
  part('uid', String(userInfo().uid));
  part('day', inputs.day ?? new Date().toISOString().slice(0, 10));
  for (const f of await sqlFilesUnder(local)) part(`local:${relative(local, f)}`, await readFile(f));
  for (const f of ['migrate.ts', 'postgres.ts']) part(`code:${f}`, await readFile(join(local, f)));
  for (const f of (await readdir(join(local, 'pg-template'))).filter((n) => n.endsWith('.ts')).sort())
    part(`code:pg-template/${f}`, await readFile(join(local, 'pg-template', f)));
  for (const f of await listMigrations(migrationsDir)) part(`migration:${f}`, await readFile(join(migrationsDir, f)));
  part('seed', inputs.seed ? await readFile(seedFile).catch(() => '(no seed file)') : '(not seeded)');
  return h.digest('hex').slice(0, 32);
}

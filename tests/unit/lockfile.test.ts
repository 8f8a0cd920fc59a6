// `npm ci` refuses a lock file that lacks any optional dependency of a locked package — including other
// platforms' binaries (npm records them only when the lock is generated without node_modules present).
// A clean clone must install reproducibly on every platform, so every optional dependency needs its entry.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<
  string,
  Record<string, string> | undefined
>;

/** npm's resolution: the nearest node_modules folder from the dependent's path upwards. */
function resolves(fromPath: string, name: string): boolean {
  let dir = fromPath;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return true;
    if (!dir) return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

describe('package-lock.json', () => {
  it('has an entry for every optional dependency of every locked package (npm ci accepts it)', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolves(path, name)) missing.push(`${path || '(root)'} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('locks every direct dependency of package.json', () => {
    const direct = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies };
    const unlocked = Object.keys(direct).filter((name) => !lock.packages[`node_modules/${name}`]);
    expect(unlocked).toEqual([]);
  });
});

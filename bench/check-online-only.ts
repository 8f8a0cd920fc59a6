// Checks that a build holds the online-only baseline code only when it was built with
// VITE_ONLINE_ONLY=1: the default build must have dropped it as dead code.
//   node --import tsx bench/check-online-only.ts dist                         # expects none
//   node --import tsx bench/check-online-only.ts /tmp/online-dist --expect    # expects it
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Strings only src/data/online-only/ puts into a bundle (its console messages). */
export const MARKERS = ['online list:', 'online chat:'];

export async function onlineOnlyChunks(dist: string): Promise<string[]> {
  const dir = join(dist, 'assets');
  const hits: string[] = [];
  for (const f of await readdir(dir)) {
    if (!f.endsWith('.js')) continue;
    const js = await readFile(join(dir, f), 'utf8');
    if (MARKERS.some((m) => js.includes(m))) hits.push(f);
  }
  return hits;
}

const [dist = 'dist', flag] = process.argv.slice(2);
const hits = await onlineOnlyChunks(dist);
const expect = flag === '--expect';
console.log(`${dist}: online-only code in ${hits.length ? hits.join(', ') : 'no chunk'}`);
if (expect ? hits.length === 0 : hits.length > 0) process.exitCode = 1;

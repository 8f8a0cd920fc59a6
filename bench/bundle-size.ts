// Row 8: JavaScript needed for /app/chats (the entry script and its static imports, gzip) and the
// whole precache, against the budget of 180 KB gzip as the baseline.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './table.ts';

const BUDGET_KB = 180;

async function gz(dist: string, path: string): Promise<number> {
  return gzipSync(await readFile(join(dist, path))).length;
}

export async function bundleRows(dist = 'dist'): Promise<BenchRow[]> {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+)"/g)].map((m) => m[1]!);
  let entryBytes = 0;
  for (const s of new Set(scripts)) entryBytes += await gz(dist, s);
  const sw = await readFile(join(dist, 'sw.js'), 'utf8');
  const urls = [...sw.matchAll(/"url":"\/?([^"]+)"/g)].map((m) => m[1]!);
  let precache = 0;
  for (const u of new Set(urls)) precache += (await readFile(join(dist, u))).length;
  const kb = (b: number) => b / 1024;
  return [
    { row: '8a', figure: 'JS for /app/chats (gzip)', poradna: kb(entryBytes), baseline: BUDGET_KB, unit: 'KB', better: 'lower', goal: '≤ 180 KB', met: kb(entryBytes) <= BUDGET_KB },
    { row: '8b', figure: `precache (${urls.length} files, raw)`, poradna: kb(precache), baseline: BUDGET_KB, unit: 'KB', better: 'lower', goal: 'report', met: true },
  ];
}

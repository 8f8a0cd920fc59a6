// BENCH_PROFILE_RECEIVERS=<dir> (bench/README.md, row 4): a sampled CPU profile of each build's
// receiving page (A2 for Poradňa, B2 for the online-only build) over row 4's sends, written as
// <dir>/<label>.cpuprofile (open in Chromium's DevTools). Printed: the top self times, and the
// inclusive times of the app's own functions (src/, sync/), named through the build's source maps.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import type { Client } from './browser.ts';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}
export type FrameName = (f: CallFrame) => string;

/** The minified name and position (no source map). */
export const minifiedName: FrameName = (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}:${f.columnNumber ?? 0}`;

/** V8's pseudo-frames: not the page's code. */
const PSEUDO = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Each sample's time is the delta to the next sample. */
function eachSample(p: Profile, fn: (nodeId: number, ms: number) => void): void {
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) fn(samples[i]!, (deltas[i + 1] ?? 0) / 1000);
}

function ranked(ms: Map<string, number>, top: number): { name: string; ms: number }[] {
  return [...ms.entries()]
    .map(([name, v]) => ({ name, ms: v }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}

/** Self time per function (ms), most first; idle, program and GC are kept as their own lines. */
export function selfTimes(p: Profile, top: number, name: FrameName = minifiedName): { name: string; ms: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const ms = new Map<string, number>();
  eachSample(p, (id, t) => {
    const n = byId.get(id);
    if (!n) return;
    const key = PSEUDO.has(n.callFrame.functionName) ? n.callFrame.functionName : name(n.callFrame);
    ms.set(key, (ms.get(key) ?? 0) + t);
  });
  return ranked(ms, top);
}

/** Time with the function anywhere on the stack (counted once per sample), for names `keep` accepts. */
export function inclusiveTimes(p: Profile, top: number, name: FrameName, keep: (name: string) => boolean): { name: string; ms: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ms = new Map<string, number>();
  eachSample(p, (id, t) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n || PSEUDO.has(n.callFrame.functionName)) continue;
      const key = name(n.callFrame);
      if (seen.has(key) || !keep(key)) continue;
      seen.add(key);
      ms.set(key, (ms.get(key) ?? 0) + t);
    }
  });
  return ranked(ms, top);
}

/**
 * Names frames by their original source through the build's source maps, read from its web folder
 * (they are built `hidden`: the gateway does not serve them); the minified name where there is none.
 */
export async function sourceNames(p: Profile, webDir: string): Promise<FrameName> {
  const maps = new Map<string, SourceMapConsumer>();
  for (const url of new Set(p.nodes.map((n) => n.callFrame.url))) {
    if (!/^https?:\/\/.*\.js$/.test(url)) continue;
    try {
      maps.set(url, new SourceMapConsumer(await readFile(join(webDir, `${new URL(url).pathname}.map`), 'utf8')));
    } catch {
      // no map: the minified name stands
    }
  }
  return (f) => {
    const map = maps.get(f.url);
    if (!map) return minifiedName(f);
    const pos = map.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber ?? 0 });
    if (pos.source === null) return minifiedName(f);
    const source = pos.source.replace(/^.*node_modules\//, '~/').replace(/^(\.\.\/)+/, '');
    return `${pos.name ?? (f.functionName || '(anonymous)')} ${source}:${pos.line}`;
  };
}

export async function startProfiles(clients: { label: string; client: Client; webDir: string }[]): Promise<(() => Promise<string[]>) | null> {
  const dir = process.env.BENCH_PROFILE_RECEIVERS;
  if (!dir) return null;
  for (const { client } of clients) {
    await client.cdp.send('Profiler.enable');
    await client.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await client.cdp.send('Profiler.start');
  }
  return async () => {
    await mkdir(dir, { recursive: true });
    const lines: string[] = [];
    const fmt = (t: { name: string; ms: number }) => `  ${t.ms.toFixed(1).padStart(8)} ms  ${t.name}`;
    for (const { label, client, webDir } of clients) {
      const { profile } = (await client.cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      await writeFile(join(dir, `${label}.cpuprofile`), JSON.stringify(profile));
      const name = await sourceNames(profile, webDir);
      lines.push(`${label}: self time over row 4's sends, top functions:`, ...selfTimes(profile, 25, name).map(fmt));
      lines.push(`${label}: inclusive time of the app's own functions:`, ...inclusiveTimes(profile, 25, name, (n) => / (src|sync)\//.test(n)).map(fmt));
    }
    return lines;
  };
}

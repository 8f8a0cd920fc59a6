// BENCH_PROFILE_RECEIVERS=<dir> (bench/README.md, row 4): a sampled CPU profile of each build's
// receiving page (A2 for Poradňa, B2 for the online-only build) over row 4's sends, written as
// <dir>/<label>.cpuprofile (open in Chromium's DevTools) with a self-time summary per function printed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from './browser.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time per function (ms), most first; idle, program and GC are kept as their own lines. */
export function selfTimes(p: Profile, top: number): { name: string; ms: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const ms = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const n = byId.get(samples[i]!);
    if (!n) continue;
    const f = n.callFrame;
    const file = f.url.split('/').pop() ?? '';
    const name = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}:${(f as { columnNumber?: number }).columnNumber ?? 0}`;
    // A sample's time is the delta to the next sample.
    ms.set(name, (ms.get(name) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  }
  return [...ms.entries()]
    .map(([name, v]) => ({ name, ms: v }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}

export async function startProfiles(clients: { label: string; client: Client }[]): Promise<(() => Promise<string[]>) | null> {
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
    for (const { label, client } of clients) {
      const { profile } = (await client.cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      await writeFile(join(dir, `${label}.cpuprofile`), JSON.stringify(profile));
      lines.push(`${label}: self time over row 4's sends, top functions:`);
      for (const t of selfTimes(profile, 25)) lines.push(`  ${t.ms.toFixed(1).padStart(8)} ms  ${t.name}`);
    }
    return lines;
  };
}

// What Lighthouse's *simulated* total blocking time on /app/chats is made of (issue 40): runs
// Lighthouse exactly as bench/lighthouse.ts does (the default mobile config, signed in, storage and
// service worker kept, no extra trace categories), then asks Lighthouse's own Lantern computation for
// the simulated timeline (LanternTotalBlockingTime's node timings) and prints every simulated CPU
// task that counts: where it starts and ends after the 4× slowdown and the simulated network, its
// observed length, the blocking it adds inside each of the two windows Lantern averages, what ran in
// it (scripts evaluated, functions called through the build's source maps, timers, GC, layout) and
// which requests it waited for.
//
//   npx vite build && node --import tsx bench/lighthouse-lantern.ts            # ./dist, 3 runs
//   LIGHTHOUSE_WEB_DIR=/tmp/x-dist LIGHTHOUSE_RUNS=5 LANTERN_KEEP=/tmp/a node --import tsx bench/lighthouse-lantern.ts
//   LANTERN_FROM=/tmp/a/run-1 node --import tsx bench/lighthouse-lantern.ts     # re-read kept artifacts
//
// How Lantern counts (Lighthouse 12.8, @paulirish/trace_engine): TBT = ½ · optimistic + ½ ·
// pessimistic, both from one simulation of the full graph; the optimistic estimate sums, over tasks
// simulated > 50 ms, what each lasts beyond 50 ms inside [pessimistic FCP, optimistic TTI], the
// pessimistic one inside [optimistic FCP, pessimistic TTI]. A task is its observed length × 4 (× 2
// when it laid out); it starts when the main thread is free and every request it depends on (the
// script it evaluates, the request whose response it handles) has finished on the simulated 150 ms /
// 1.6 Mbit/s network.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
// Lighthouse's own computed artifacts.
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternInteractive } from 'lighthouse/core/computed/metrics/lantern-interactive.js';
import { measureInFreshChromium } from '../scripts/lighthouse/browser.ts';
import { rendererAtStart } from '../scripts/lighthouse/renderer-start.ts';
import { runLighthouse } from '../scripts/lighthouse/run.ts';
import { startTestStack } from '../tests/helpers/stack.ts';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  args: { data?: Record<string, unknown> & { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number; type?: string } };
}

interface LanternNode {
  type: 'cpu' | 'network';
  id: string;
  startTime: number;
  endTime: number;
  duration: number;
  event: TraceEvent;
  childEvents: TraceEvent[];
  request: { url: string; resourceType?: string; fromDiskCache?: boolean; transferSize?: number };
  didPerformLayout(): boolean;
  getDependencies(): LanternNode[];
}

interface Timing {
  startTime: number;
  endTime: number;
  duration: number;
}

interface Estimate {
  timeInMs: number;
  nodeTimings: Map<LanternNode, Timing>;
}

export interface SimulatedTask {
  /** Simulated ms after the navigation. */
  start: number;
  end: number;
  simulatedMs: number;
  /** Observed (unthrottled) ms after the navigation, and length. */
  observedAt: number;
  observedMs: number;
  laidOut: boolean;
  /** Blocking inside the optimistic and the pessimistic window; Lighthouse's TBT is their mean. */
  blockingOpt: number;
  blockingPess: number;
  what: string;
  waitsFor: string[];
}

export interface LanternBreakdown {
  tbt: number;
  /** The renderer's first counters in the trace: documents and V8 heap already there when the run began. */
  startCounters: string;
  fcp: { opt: number; pess: number };
  tti: { opt: number; pess: number };
  tasks: SimulatedTask[];
}

export interface KeptArtifacts {
  Trace: { traceEvents: TraceEvent[] };
  DevtoolsLog: unknown[];
  GatherContext: unknown;
  URL: { mainDocumentUrl: string; requestedUrl: string; finalDisplayedUrl: string };
  SourceMaps: unknown[];
  settings: Record<string, unknown>;
}

const short = (url: string | undefined) => (url ? url.replace(/^https?:\/\/[^/]+/, '') || '/' : '');

function blocking(t: Timing, from: number, to: number): number {
  if (t.duration < 50 || t.endTime < from || t.startTime > to) return 0;
  const clipped = Math.min(t.endTime, to) - Math.max(t.startTime, from);
  return clipped < 50 ? 0 : clipped - 50;
}

/** What a task ran: its direct children by time, functions named through the build's source maps. */
function describe(node: LanternNode, source: (url: string, line: number, col: number) => string | null): string {
  const parts = new Map<string, number>();
  let coveredUntil = -1;
  for (const e of node.childEvents) {
    if (!e.dur || e.ph !== 'X') continue;
    if (e.ts < coveredUntil) continue; // nested in the previous direct child
    coveredUntil = e.ts + e.dur;
    const d = e.args.data ?? {};
    let label = e.name;
    if (e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule') label = `${e.name} ${short(d.url ?? (d as { fileName?: string }).fileName)}`;
    else if (e.name === 'FunctionCall') {
      const mapped = d.url ? source(d.url, Number(d.lineNumber ?? 0), Number(d.columnNumber ?? 0)) : null;
      label = `FunctionCall ${mapped ?? `${short(d.url)} ${d.functionName ?? ''}`}`;
    } else if (e.name === 'EventDispatch') label = `EventDispatch ${d.type ?? ''}`;
    parts.set(label, (parts.get(label) ?? 0) + e.dur / 1000);
  }
  // The script entry points inside (at any depth): a callback's function through the source maps.
  const calls = new Map<string, number>();
  for (const e of node.childEvents) {
    if (e.name !== 'FunctionCall' || !e.dur) continue;
    const d = e.args.data ?? {};
    const where = (d.url ? source(d.url, Number(d.lineNumber ?? 0), Number(d.columnNumber ?? 0)) : null) ?? `${short(d.url)} ${d.functionName ?? ''}`;
    calls.set(where, (calls.get(where) ?? 0) + e.dur / 1000);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join('; ');
  return `${top(parts, 3)}${calls.size ? ` ⟨${top(calls, 3)}⟩` : ''}`;
}

function sourceMapper(webDir: string | undefined): (url: string, line: number, col: number) => string | null {
  const maps = new Map<string, TraceMap | null>();
  return (url, line, col) => {
    const chunk = /\/assets\/([^/?#]+\.js)/.exec(url)?.[1];
    if (!chunk || !webDir) return null;
    if (!maps.has(chunk)) {
      const path = join(webDir, 'assets', `${chunk}.map`);
      maps.set(chunk, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null);
    }
    const map = maps.get(chunk);
    if (!map) return null;
    // Trace line numbers are 0-based here as in the CPU profile.
    const o = originalPositionFor(map, { line: line + 1, column: col });
    if (!o.source) return null;
    return `${o.source.replace(/^(\.\.\/)+/, '')}:${o.line}${o.name ? ` ${o.name}` : ''}`;
  };
}

/** Lighthouse's own Lantern TBT for kept artifacts, task by task. */
export async function lanternBreakdown(a: KeptArtifacts, webDir?: string): Promise<LanternBreakdown> {
  const data = {
    trace: a.Trace,
    devtoolsLog: a.DevtoolsLog,
    gatherContext: a.GatherContext,
    settings: a.settings,
    URL: a.URL,
    SourceMaps: a.SourceMaps,
    simulator: null,
  };
  const context = { computedCache: new Map(), settings: a.settings };
  const tbt = (await LanternTotalBlockingTime.request(data as never, context)) as unknown as { timing: number; optimisticEstimate: Estimate; pessimisticEstimate: Estimate };
  const fcp = (await LanternFirstContentfulPaint.request(data as never, context)) as unknown as { optimisticEstimate: Estimate; pessimisticEstimate: Estimate };
  const tti = (await LanternInteractive.request(data as never, context)) as unknown as { optimisticEstimate: Estimate; pessimisticEstimate: Estimate };
  const optWindow = [fcp.pessimisticEstimate.timeInMs, tti.optimisticEstimate.timeInMs] as const;
  const pessWindow = [fcp.optimisticEstimate.timeInMs, tti.pessimisticEstimate.timeInMs] as const;
  const source = sourceMapper(webDir);
  const nodes = [...tbt.pessimisticEstimate.nodeTimings.entries()];
  const root = nodes.map(([n]) => n).filter((n) => n.type === 'network').sort((x, y) => x.startTime - y.startTime)[0];
  const t0 = root?.startTime ?? 0;
  const tasks: SimulatedTask[] = [];
  for (const [node, timing] of nodes) {
    if (node.type !== 'cpu') continue;
    if (timing.duration < 40 && node.duration < 10_000) continue;
    tasks.push({
      start: timing.startTime,
      end: timing.endTime,
      simulatedMs: timing.duration,
      observedAt: (node.startTime - t0) / 1000,
      observedMs: node.duration / 1000,
      laidOut: node.didPerformLayout(),
      blockingOpt: blocking(timing, ...optWindow),
      blockingPess: blocking(timing, ...pessWindow),
      what: describe(node, source),
      waitsFor: node
        .getDependencies()
        .map((d) => (d.type === 'network' ? `${short(d.request.url)}${d.request.fromDiskCache ? ' (disk cache)' : ''}` : `task @${Math.round((d.startTime - t0) / 1000)}`)),
    });
  }
  tasks.sort((x, y) => x.start - y.start);
  const counters = rendererAtStart(a.Trace.traceEvents as unknown as Parameters<typeof rendererAtStart>[0]);
  return {
    tbt: tbt.timing,
    startCounters: counters ? `${counters.documents} documents, ${(counters.jsHeapBytes / 1e6).toFixed(1)} MB JS heap` : '?',
    fcp: { opt: fcp.optimisticEstimate.timeInMs, pess: fcp.pessimisticEstimate.timeInMs },
    tti: { opt: tti.optimisticEstimate.timeInMs, pess: tti.pessimisticEstimate.timeInMs },
    tasks,
  };
}

export function renderBreakdown(b: LanternBreakdown): string {
  const lines = [
    `Lantern TBT ${Math.round(b.tbt)} ms (renderer at start: ${b.startCounters}); FCP opt/pess ${Math.round(b.fcp.opt)}/${Math.round(b.fcp.pess)} ms; TTI opt/pess ${Math.round(b.tti.opt)}/${Math.round(b.tti.pess)} ms`,
    `  simulated start–end (len)  | observed @ (len)   | blocking opt/pess | what ran | waits for`,
  ];
  for (const t of b.tasks) {
    lines.push(
      `  ${Math.round(t.start)}–${Math.round(t.end)} (${Math.round(t.simulatedMs)})${t.laidOut ? ' L' : ''} | @${Math.round(t.observedAt)} (${t.observedMs.toFixed(1)}) | ${Math.round(t.blockingOpt)}/${Math.round(t.blockingPess)} | ${t.what} | ${t.waitsFor.join(', ')}`,
    );
  }
  return lines.join('\n');
}

async function keptFrom(dir: string): Promise<KeptArtifacts> {
  return JSON.parse(await readFile(join(dir, 'artifacts.json'), 'utf8')) as KeptArtifacts;
}

async function main(): Promise<void> {
  const webDir = resolve(process.env.LIGHTHOUSE_WEB_DIR ?? 'dist');
  if (process.env.LANTERN_FROM) {
    console.log(renderBreakdown(await lanternBreakdown(await keptFrom(process.env.LANTERN_FROM), webDir)));
    return;
  }
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  const keep = process.env.LANTERN_KEEP;
  const stack = await startTestStack({ webDir });
  const profile = await mkdtemp(join(tmpdir(), 'poradna-lh-lantern-'));
  try {
    for (let i = 0; i < runs; i++) {
      const measure = () =>
        measureInFreshChromium(
          stack.url,
          profile,
          (b) => b.signIn(),
          (b) => runLighthouse(`${stack.url}/app/chats`, b.port, 'mobile', { keepStorage: true }),
        );
      const { lhr, artifacts } = await measure().catch((err: unknown) => {
        console.log(`run ${i + 1} failed (${err instanceof Error ? err.message : String(err)}); once more`);
        return measure();
      });
      const kept: KeptArtifacts = { ...(artifacts as unknown as Omit<KeptArtifacts, 'settings'>), settings: lhr.configSettings as unknown as Record<string, unknown> };
      const b = await lanternBreakdown(kept, webDir);
      const perf = Math.round((lhr.categories['performance']?.score ?? NaN) * 100);
      console.log(
        `\nrun ${i + 1}: performance ${perf}, TBT ${Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN)} ms, CPU index ${Math.round(lhr.environment.benchmarkIndex)}, ${new Date().toISOString().slice(11, 19)}, load ${loadavg()[0]!.toFixed(1)}`,
      );
      console.log(renderBreakdown(b));
      if (keep) {
        const dir = join(keep, `run-${i + 1}`);
        await mkdir(dir, { recursive: true });
        const { Trace, DevtoolsLog, GatherContext, URL, SourceMaps, settings } = kept;
        await writeFile(join(dir, 'artifacts.json'), JSON.stringify({ Trace, DevtoolsLog, GatherContext, URL, SourceMaps, settings }));
      }
    }
  } finally {
    await stack.destroy();
    await rm(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

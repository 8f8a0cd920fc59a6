// What Lighthouse's total blocking time on /app/chats is made of (issue 40): runs Lighthouse as
// bench/lighthouse.ts does (mobile preset, signed in as the demo member, storage and service worker
// kept) with JavaScript samples in its trace, and prints every main-thread task after the first
// contentful paint that Lighthouse's simulation keeps (≥ 10 ms observed), with the blocking time it
// is counted for and the source functions (through the build's source maps) its time went to.
//
//   npx vite build && node --import tsx bench/lighthouse-tasks.ts        # ./dist, 2 runs
//   LIGHTHOUSE_WEB_DIR=/tmp/x-dist LIGHTHOUSE_RUNS=3 LIGHTHOUSE_TRACE=/tmp/t node --import tsx bench/lighthouse-tasks.ts
//
// How Lighthouse 12 counts (its Lantern simulation, @paulirish/trace_engine): every top-level task of
// the observed (unthrottled) load that lasted ≥ 10 ms becomes a simulated task 4× as long (2× when
// it laid out); a simulated task blocks for what it lasts beyond 50 ms, between first paint and
// time to interactive. So a task of 12.5 ms here blocks nothing, one of 25 ms blocks 50 ms. The
// estimate printed beside Lighthouse's own figure ignores the simulated network and window; it tells
// which tasks count, not the exact total. `cpu` is the task's thread time: on a loaded machine the
// wall time of a task is mostly waiting for a core, and only the thread time says what it cost.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import lighthouse from 'lighthouse';
import { withChromium } from '../scripts/lighthouse/browser.ts';
import { startTestStack } from '../tests/helpers/stack.ts';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

export interface BlockingTask {
  /** ms after the navigation started */
  at: number;
  wallMs: number;
  cpuMs: number;
  laidOut: boolean;
  /** Lighthouse's simulated blocking time for this task (see the header). */
  blockingMs: number;
  /** Sampled time by the nearest source function of the app (src/, sync/, sw/), else the leaf. */
  by: [string, number][];
}

const SLOWDOWN = 4;
const KEPT_MS = 10;

/** The long tasks after first paint of one Lighthouse trace; `webDir` holds the build's source maps. */
export function blockingTasks(events: TraceEvent[], webDir: string): { fcpAt: number; tasks: BlockingTask[] } {
  const fcp = events.filter((e) => e.name === 'firstContentfulPaint').sort((a, b) => a.ts - b.ts)[0];
  if (!fcp) throw new Error('no firstContentfulPaint in the trace');
  const pid = fcp.pid;
  const tid = events.find((e) => e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid;
  const nav = events.find((e) => e.name === 'navigationStart' && e.pid === pid && e.args?.data?.['isLoadingMainFrame'] === true);
  const t0 = nav?.ts ?? fcp.ts;
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X');
  // Top-level tasks: RunTask (Lighthouse's category) or ThreadControllerImpl::RunTask, not nested.
  const all = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const top: TraceEvent[] = [];
  for (const e of all) {
    const last = top[top.length - 1];
    if (last && e.ts + (e.dur ?? 0) <= last.ts + (last.dur ?? 0)) continue;
    top.push(e);
  }
  const samples = profileSamples(events, pid, tid ?? -1);
  const source = sourceMapper(webDir);
  const tasks: BlockingTask[] = [];
  for (const task of top) {
    const wallMs = (task.dur ?? 0) / 1000;
    if (task.ts < fcp.ts || wallMs < KEPT_MS) continue;
    const end = task.ts + (task.dur ?? 0);
    const laidOut = onMain.some((e) => e.name === 'Layout' && e.ts >= task.ts && e.ts < end);
    const simulated = wallMs * (laidOut ? SLOWDOWN / 2 : SLOWDOWN);
    const by = new Map<string, number>();
    for (const s of samples) {
      if (s.ts < task.ts || s.ts >= end) continue;
      const where = s.stack.map((f) => source(f)).find((o) => o !== null && /^(src|sync|sw)\//.test(o)) ?? leafName(s.stack[0]);
      by.set(where, (by.get(where) ?? 0) + s.ms);
    }
    tasks.push({
      at: (task.ts - t0) / 1000,
      wallMs,
      cpuMs: (task.tdur ?? task.dur ?? 0) / 1000,
      laidOut,
      blockingMs: Math.max(0, simulated - 50),
      by: [...by].sort((a, b) => b[1] - a[1]),
    });
  }
  return { fcpAt: (fcp.ts - t0) / 1000, tasks };
}

interface Sample {
  ts: number;
  ms: number;
  /** Leaf first. */
  stack: ProfileNode['callFrame'][];
}

/** The main thread's JavaScript samples (the 'disabled-by-default-v8.cpu_profiler' category). */
function profileSamples(events: TraceEvent[], pid: number, tid: number): Sample[] {
  const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid);
  if (!profile) return [];
  const nodes = new Map<number, ProfileNode>();
  const ids: number[] = [];
  const deltas: number[] = [];
  let t = Number((profile.args?.data as { startTime?: number } | undefined)?.startTime ?? 0);
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid || e.id !== profile.id) continue;
    const data = e.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    ids.push(...(data?.cpuProfile?.samples ?? []));
    deltas.push(...(data?.timeDeltas ?? []));
  }
  const out: Sample[] = [];
  for (let i = 0; i < ids.length; i++) {
    t += deltas[i] ?? 0;
    const stack: ProfileNode['callFrame'][] = [];
    for (let n = nodes.get(ids[i]!); n; n = n.parent === undefined ? undefined : nodes.get(n.parent)) stack.push(n.callFrame);
    out.push({ ts: t, ms: (deltas[i + 1] ?? 0) / 1000, stack });
  }
  return out;
}

function leafName(frame: ProfileNode['callFrame'] | undefined): string {
  return frame?.functionName || '(anonymous)';
}

/** `src/x.ts name` for a frame of the build's chunks, through their source maps; null for others. */
function sourceMapper(webDir: string): (frame: ProfileNode['callFrame']) => string | null {
  const maps = new Map<string, TraceMap | null>();
  return (frame) => {
    const chunk = /\/assets\/([^/?#]+\.js)/.exec(frame.url)?.[1];
    if (!chunk) return null;
    if (!maps.has(chunk)) {
      const path = join(webDir, 'assets', `${chunk}.map`);
      maps.set(chunk, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null);
    }
    const map = maps.get(chunk);
    if (!map) return null;
    const o = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
    if (!o.source) return null;
    return `${o.source.replace(/^(\.\.\/)+/, '')}${o.name ? ` ${o.name}` : ''}`;
  };
}

async function main(): Promise<void> {
  const webDir = resolve(process.env.LIGHTHOUSE_WEB_DIR ?? 'dist');
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 2);
  const keep = process.env.LIGHTHOUSE_TRACE;
  const stack = await startTestStack({ webDir });
  const profile = await mkdtemp(join(tmpdir(), 'poradna-lh-tasks-'));
  try {
    await withChromium(stack.url, profile, async (browser) => {
      for (let i = 0; i < runs; i++) {
        await browser.signIn();
        const result = await lighthouse(
          `${stack.url}/app/chats`,
          { port: browser.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
          { extends: 'lighthouse:default', settings: { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } },
        );
        if (!result) throw new Error('Lighthouse returned nothing');
        const { lhr } = result;
        const trace = (result.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace;
        if (keep) {
          await mkdir(keep, { recursive: true });
          await writeFile(join(keep, `run-${i + 1}.trace.json`), JSON.stringify(trace));
        }
        const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
        const { fcpAt, tasks } = blockingTasks(trace.traceEvents, webDir);
        const estimate = tasks.reduce((sum, t) => sum + t.blockingMs, 0);
        // The same count from thread time: what the tasks would block if none of them waited for a core.
        const fromCpu = tasks.reduce((sum, t) => sum + (t.cpuMs >= KEPT_MS ? Math.max(0, t.cpuMs * (t.laidOut ? SLOWDOWN / 2 : SLOWDOWN) - 50) : 0), 0);
        const cpuOver10 = tasks.filter((t) => t.cpuMs >= KEPT_MS).length;
        console.log(
          `\nrun ${i + 1}: performance ${Math.round((lhr.categories['performance']?.score ?? NaN) * 100)}, TBT ${metric('total-blocking-time')} ms (estimate from the tasks below ${Math.round(estimate)} ms), ` +
            `CPU index ${Math.round(lhr.environment.benchmarkIndex)}; first paint at ${Math.round(fcpAt)} ms of the observed load; ` +
            `by thread time: ${cpuOver10} tasks ≥ 10 ms, blocking ${Math.round(fromCpu)} ms`,
        );
        for (const t of tasks) {
          const by = t.by.slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
          console.log(`  @${Math.round(t.at)} ms  ${t.wallMs.toFixed(1)} ms (cpu ${t.cpuMs.toFixed(1)})${t.laidOut ? ' layout' : ''}  blocking ${Math.round(t.blockingMs)} ms  ${by}`);
        }
      }
    });
  } finally {
    await stack.destroy();
    await rm(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

// What the measured page's renderer already held when a Lighthouse run began (issue 40). A run in a
// long-lived Chromium lands in the renderer process of the origin's earlier pages and its service
// worker; Lighthouse's own debugger set-up then walks that V8 heap in one task before the navigation
// commits, and Lantern simulates that task at 4× after first paint (87–266 ms observed, 173–689 ms of
// TBT, bench/lighthouse-lantern.ts on 2026-11-29). A fresh Chromium per run starts the page in a
// renderer with one document; more than that means the run measured leftovers, not the page.

interface CounterEvent {
  name: string;
  pid: number;
  ts: number;
  args?: { data?: { documents?: number; jsHeapSizeUsed?: number } };
}

export interface RendererAtStart {
  documents: number;
  jsHeapBytes: number;
}

/** Most documents a fresh renderer shows at its first counters (the initial about:blank). */
export const FRESH_RENDERER_DOCUMENTS = 2;

/** The first document/heap counters of the renderer that painted the page, or null if the trace has none. */
export function rendererAtStart(events: readonly CounterEvent[]): RendererAtStart | null {
  const painted = events.find((e) => e.name === 'firstContentfulPaint');
  if (!painted) return null;
  let first: CounterEvent | undefined;
  for (const e of events) {
    if (e.name !== 'UpdateCounters' || e.pid !== painted.pid || e.args?.data?.documents === undefined) continue;
    if (!first || e.ts < first.ts) first = e;
  }
  if (!first) return null;
  return { documents: first.args!.data!.documents!, jsHeapBytes: first.args!.data!.jsHeapSizeUsed ?? 0 };
}

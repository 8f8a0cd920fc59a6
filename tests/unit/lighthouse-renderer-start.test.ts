// The Lighthouse harness's check that a run starts in a fresh renderer (issue 40: in a shared Chromium
// the page began in a heap of 37–53 documents and Lighthouse's debugger set-up on it was counted as
// up to 689 ms of blocking time).
import { describe, expect, it } from 'vitest';
import { FRESH_RENDERER_DOCUMENTS, rendererAtStart } from '../../scripts/lighthouse/renderer-start.ts';

const counters = (pid: number, ts: number, documents: number, heap: number) => ({
  name: 'UpdateCounters',
  pid,
  ts,
  args: { data: { documents, jsEventListeners: 0, jsHeapSizeUsed: heap, nodes: 1 } },
});

describe('rendererAtStart', () => {
  it("reads the first counters of the renderer that painted, not another process's", () => {
    const events = [
      counters(7, 50, 40, 20e6), // another renderer (e.g. the worker's old page)
      counters(3, 200, 5, 3e6),
      counters(3, 100, 1, 2e5),
      { name: 'firstContentfulPaint', pid: 3, ts: 900 },
    ];
    expect(rendererAtStart(events)).toEqual({ documents: 1, jsHeapBytes: 2e5 });
  });

  it('flags a run that began in a renderer holding earlier pages (the shared-Chromium case)', () => {
    const shared = rendererAtStart([counters(3, 100, 37, 8.6e6), { name: 'firstContentfulPaint', pid: 3, ts: 900 }]);
    expect(shared!.documents).toBeGreaterThan(FRESH_RENDERER_DOCUMENTS);
  });

  it('answers null without a paint or without counters', () => {
    expect(rendererAtStart([counters(3, 100, 1, 1)])).toBeNull();
    expect(rendererAtStart([{ name: 'firstContentfulPaint', pid: 3, ts: 900 }])).toBeNull();
  });
});

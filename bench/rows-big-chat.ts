// Row 7: the 10,000-message chat. DOM nodes and used JS heap (CDP Performance.getMetrics after a
// collection) when it opens and after scrolling it end to end, and frames over 50 ms during that
// scroll (requestAnimationFrame intervals while the scroller moves 1,500 px per frame to the top).
import { domAndHeap, openAndMark, type Client } from './browser.ts';
import { longFrames } from './stats.ts';
import type { BenchRow } from './table.ts';

const STEP_PX = 1500;

interface BigChat {
  open: { nodes: number; heapMb: number };
  after: { nodes: number; heapMb: number };
  long: { count: number; worst: number };
  frames: number;
}

async function measure(c: Client, path: string): Promise<BigChat> {
  await openAndMark(c, path, 'poradna:last-message', 180_000);
  const open = await domAndHeap(c);
  const stamps = await c.page.evaluate(async (step) => {
    const el = document.querySelector<HTMLElement>('[data-testid="message-scroller"]');
    if (!el) throw new Error('no message scroller');
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const out: number[] = [await frame()];
    let still = 0;
    // To the top; dynamic row heights may move the top while it is measured, so go on until it holds.
    while (still < 5 && out.length < 20_000) {
      const before = el.scrollTop;
      el.scrollTop = Math.max(0, before - step);
      out.push(await frame());
      still = el.scrollTop === 0 && before === 0 ? still + 1 : 0;
    }
    return out;
  }, STEP_PX);
  const after = await domAndHeap(c);
  return { open, after, long: longFrames(stamps), frames: stamps.length };
}

export async function bigChatRows(a: Client, b: Client, path: string): Promise<BenchRow[]> {
  const pa = await measure(a, path);
  const pb = await measure(b, path);
  const note = `${pa.frames}/${pb.frames} frames, worst ${pa.long.worst.toFixed(0)}/${pb.long.worst.toFixed(0)} ms`;
  return [
    { row: '7a', figure: 'chat of 10,000: DOM nodes when open', poradna: pa.open.nodes, baseline: pb.open.nodes, unit: '', better: 'lower', goal: '≤ 1,500', met: pa.open.nodes <= 1500 },
    { row: '7b', figure: 'chat of 10,000: DOM nodes after scrolling end to end', poradna: pa.after.nodes, baseline: pb.after.nodes, unit: '', better: 'lower', goal: '≤ 1,500', met: pa.after.nodes <= 1500 },
    { row: '7c', figure: 'chat of 10,000: JS heap when open', poradna: pa.open.heapMb, baseline: pb.open.heapMb, unit: 'MiB', better: 'lower', goal: 'report', met: true },
    { row: '7d', figure: 'chat of 10,000: JS heap after scrolling', poradna: pa.after.heapMb, baseline: pb.after.heapMb, unit: 'MiB', better: 'lower', goal: 'report', met: true },
    { row: '7e', figure: `chat of 10,000: frames over 50 ms while scrolling (${note})`, poradna: pa.long.count, baseline: pb.long.count, unit: '', better: 'lower', goal: '0', met: pa.long.count === 0 },
  ];
}

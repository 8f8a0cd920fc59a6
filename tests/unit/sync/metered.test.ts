// R5.9: a pull's reply is bounded by the pace of its bytes, not by a fixed time for a page of unknown
// size: no byte for the stall time aborts, every byte resets that wait, and the deadline ends it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meterTransfer } from '../../../sync/server/metered.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A fetch whose reply's body is fed by hand. */
function handFed() {
  let feed: ReadableStreamDefaultController<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  const fetchFn = (async () => new Response(body, { status: 200 })) as typeof fetch;
  return { fetchFn, push: (n: number) => feed!.enqueue(new Uint8Array(n)) };
}

describe('R5.9 metered transfer', () => {
  it('R5.9 bytes that keep coming keep the request alive past the stall time; silence for the stall time aborts it', async () => {
    const seen: number[] = [];
    const meter = meterTransfer({ stallMs: 1000, deadlineMs: 60_000, onBytes: (n) => seen.push(n) });
    const src = handFed();
    const res = await meter.wrap(src.fetchFn)('http://x/', {});
    const reader = res.body!.getReader();
    for (let i = 0; i < 5; i++) {
      src.push(100);
      await reader.read();
      await vi.advanceTimersByTimeAsync(900);
    }
    expect(meter.signal.aborted).toBe(false);
    expect(seen).toEqual([100, 100, 100, 100, 100]);
    await vi.advanceTimersByTimeAsync(100);
    expect(meter.signal.aborted).toBe(true);
    expect(String((meter.signal.reason as Error).message)).toContain('no byte for 1000 ms');
    expect((meter.signal.reason as Error).name).toBe('AbortError');
    meter.dispose();
  });

  it('R5.9 the deadline ends a transfer that trickles', async () => {
    const meter = meterTransfer({ stallMs: 1000, deadlineMs: 3000 });
    const src = handFed();
    const res = await meter.wrap(src.fetchFn)('http://x/', {});
    const reader = res.body!.getReader();
    for (let i = 0; i < 6 && !meter.signal.aborted; i++) {
      src.push(10);
      await reader.read();
      await vi.advanceTimersByTimeAsync(600);
    }
    expect(meter.signal.aborted).toBe(true);
    expect(String((meter.signal.reason as Error).message)).toContain('transfer took over 3000 ms');
    meter.dispose();
  });

  it('R5.9 a finished transfer leaves no timer behind', async () => {
    const meter = meterTransfer({ stallMs: 1000, deadlineMs: 3000 });
    meter.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(meter.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});

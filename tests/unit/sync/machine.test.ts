import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rawStatus } from '../../../sync/status.ts';
import { startHarness } from './helpers/machine-harness.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2025-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('R7 machine timings', () => {
  it('R7.1 the orchestrator ticks every 3 s', async () => {
    const h = startHarness();
    await advance(9100);
    expect(h.ticks).toEqual([3000, 6000, 9000]);
    h.actor.stop();
  });

  it('R7.2 fetches start at least 1200 ms apart; a later request is deferred, not dropped', async () => {
    const h = startHarness();
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(500);
    h.actor.send({ type: 'REQUEST_PULL' });
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(2000);
    expect(h.pulls).toEqual([0, 1200]);
    h.actor.stop();
  });

  it('R7.2 a request during a fetch queues one refetch 100 ms after it ends (or when the gap allows)', async () => {
    const h = startHarness();
    h.pullTakes.ms = 2000;
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(300);
    h.actor.send({ type: 'REQUEST_PULL' });
    h.actor.send({ type: 'REQUEST_PULL' });
    h.pullTakes.ms = 0;
    await advance(1700); // first ends at 2000
    expect(h.pulls).toEqual([0]);
    await advance(100);
    expect(h.pulls).toEqual([0, 2100]);
    // Short fetch: the queued refetch waits for the 1200 ms gap rather than 100 ms.
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(0);
    expect(h.pulls).toEqual([0, 2100]);
    await advance(1200);
    expect(h.pulls).toEqual([0, 2100, 3300]);
    h.actor.stop();
  });

  it('R5.4 every (re)connect pulls; R7.4 resubscribe waits 1500 ms doubling to 30 s and resets on success', async () => {
    const h = startHarness();
    h.deps.timings.pollIdleMs = 1e9; // no polling in this test
    expect(h.links).toHaveLength(1);
    h.lastLink().up();
    await advance(0);
    expect(h.pulls).toEqual([0]);
    const downs = [1500, 3000, 6000, 12000, 24000, 30000, 30000];
    for (const wait of downs) {
      const before = h.links.length;
      h.lastLink().down();
      await advance(wait - 1);
      expect(h.links.length).toBe(before);
      await advance(1);
      expect(h.links.length).toBe(before + 1);
    }
    expect(h.links.slice(0, -1).every((l) => l.closed)).toBe(true);
    h.lastLink().up();
    await advance(0);
    expect(h.pulls.length).toBe(2);
    h.lastLink().down();
    await advance(1500);
    expect(h.links.length).toBe(downs.length + 2);
    h.actor.stop();
  });

  it('R7.3 connected and idle for 30 s: a health refetch', async () => {
    const h = startHarness();
    h.lastLink().up();
    await advance(0);
    expect(h.pulls).toEqual([0]);
    await advance(29_000);
    expect(h.pulls).toEqual([0]);
    await advance(3_000); // the first tick at or after 30 s of quiet
    expect(h.pulls).toEqual([0, 30_000]);
    await advance(30_000);
    expect(h.pulls).toEqual([0, 30_000, 60_000]);
    h.actor.stop();
  });

  it('R6.3 disconnected: polls once idle over 5 s, then 2000 ms × 1.5 up to 15 s', async () => {
    const h = startHarness({ withLink: false });
    await advance(60_000);
    const gaps = h.pulls.map((t, i) => t - (h.pulls[i - 1] ?? 0));
    expect(h.pulls[0]).toBe(5000);
    expect(gaps.slice(1, 7)).toEqual([2000, 3000, 4500, 6750, 10125, 15000]);
    h.actor.stop();
  });

  it('R6.3 activity (an event) resets polling: next poll only after 5 s idle, back-off from 2000 ms', async () => {
    const h = startHarness({ withLink: false });
    await advance(5000 + 2000 + 3000); // polls at 5000, 7000, 10000
    expect(h.pulls).toEqual([5000, 7000, 10000]);
    h.actor.send({ type: 'TRANSPORT_EVENT', event: { kind: 'changed' } });
    await advance(0);
    await advance(20_000);
    // The hint itself asks for a pull (deferred by the fetch gap); polling then waits for 5 s of quiet.
    expect(h.pulls.slice(3, 6)).toEqual([11200, 15000, 17000]);
    h.actor.stop();
  });

  it('R5.3 an event whose handling finds a gap asks for a pull', async () => {
    const h = startHarness();
    h.lastLink().up();
    await advance(1200);
    h.eventOutcome = { needPull: true, changed: true, specialistReplies: [] };
    h.lastLink().emit({ kind: 'row', table: 'messages', op: 'INSERT', record: {}, oldRecord: {} });
    await advance(0);
    expect(h.pulls).toEqual([0, 1200]);
    h.actor.stop();
  });

  it('R7.5 a typing start older than 120 s triggers a refetch; a specialist reply clears it', async () => {
    const h = startHarness();
    h.deps.timings.healthIdleMs = 1e9;
    h.lastLink().up();
    h.actor.send({ type: 'TYPING_STARTED', conversationId: 'c1', at: Date.now() });
    h.actor.send({ type: 'TYPING_STARTED', conversationId: 'c2', at: Date.now() });
    h.actor.send({ type: 'TYPING_CLEARED', conversationId: 'c2' });
    await advance(0);
    await advance(119_000);
    const before = h.pulls.length;
    await advance(3000);
    expect(h.pulls.length).toBe(before + 1);
    expect(h.actor.getSnapshot().context.typing).toEqual({});
    h.actor.stop();
  });

  it('R7.6 offline stops the transport and pulls; back online pulls, pushes and resubscribes at once', async () => {
    const h = startHarness();
    h.lastLink().up();
    await advance(2000);
    h.actor.send({ type: 'OFFLINE' });
    await advance(0);
    expect(h.lastLink().closed).toBe(true);
    h.actor.send({ type: 'REQUEST_PULL' });
    h.actor.send({ type: 'FLUSH' });
    await advance(60_000);
    expect(h.pulls).toEqual([0]);
    const flushesOffline = h.flushes.length;
    expect(h.actor.getSnapshot().context.online).toBe(false);
    h.actor.send({ type: 'ONLINE' });
    await advance(0);
    expect(h.pulls).toEqual([0, 62_000]);
    expect(h.flushes.length).toBe(flushesOffline + 1);
    expect(h.links.length).toBe(2);
    h.actor.stop();
  });

  it('R6.9 the server losing PostgreSQL marks realtime down at once (fallback, polling) and keeps the channel; its "ok" marks it up with a pull, and none within 30 s rejoins', async () => {
    const h = startHarness();
    h.lastLink().up();
    await advance(0);
    expect(h.pulls).toEqual([0]);
    h.lastLink().degrade();
    await advance(0);
    const ctx = () => h.actor.getSnapshot().context;
    expect(rawStatus(ctx())).toEqual({ connection: 'fallback', error: null });
    // Polling stands in (R6.3: once idle over 5 s), the channel is not left for a resubscription.
    await advance(5000);
    expect(h.pulls).toEqual([0, 5000]);
    await advance(24_999);
    expect(h.links).toHaveLength(1);
    expect(h.lastLink().closed).toBe(false);
    const polled = h.pulls.length;
    expect(polled).toBeGreaterThan(3);
    h.lastLink().up();
    await advance(0);
    expect(rawStatus(ctx())).toEqual({ connection: 'online', error: null });
    expect(h.pulls).toHaveLength(polled + 1); // R5.4: back up pulls what the gap missed
    await advance(20_000);
    expect(h.pulls).toHaveLength(polled + 1); // polling stopped
    // No 'ok' within 30 s (R7.4's longest wait): the channel is left and joined anew after 1500 ms.
    h.lastLink().degrade();
    await advance(30_000);
    expect(h.lastLink().closed).toBe(true);
    expect(h.links).toHaveLength(1);
    await advance(1500);
    expect(h.links).toHaveLength(2);
    h.lastLink().up();
    await advance(0);
    expect(rawStatus(ctx())).toEqual({ connection: 'online', error: null });
    // Joined while the server is still without PostgreSQL (a first join): down, not 'connecting'.
    const g = startHarness();
    g.lastLink().degrade();
    await advance(0);
    expect(rawStatus(g.actor.getSnapshot().context)).toEqual({ connection: 'fallback', error: null });
    h.actor.stop();
    g.actor.stop();
  });

  it('R7.6 a pull failing while online is an error until a pull succeeds or the network comes back', async () => {
    const h = startHarness();
    h.deps.pull = () => Promise.reject(new Error('500'));
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(0);
    expect(h.actor.getSnapshot().context.pullFailed).toBe(true);
    h.deps.pull = async () => ({ changed: true });
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(1200);
    expect(h.actor.getSnapshot().context.pullFailed).toBe(false);
    h.actor.stop();
  });

  it('R5.10 a retried pull that stores a page clears the last failure at once, not at its end; a failure after it is an error again', async () => {
    const h = startHarness();
    h.deps.pull = () => Promise.reject(new Error('stalled'));
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(0);
    expect(h.actor.getSnapshot().context.pullFailed).toBe(true);
    // The next pull works through a backlog for minutes: its first page stored is progress.
    let fail: (e: Error) => void = () => undefined;
    h.deps.pull = () => new Promise((_, reject) => (fail = reject));
    h.actor.send({ type: 'REQUEST_PULL' });
    await advance(1200);
    expect(h.actor.getSnapshot().value).toMatchObject({ fetch: 'fetching' });
    expect(h.actor.getSnapshot().context.pullFailed).toBe(true);
    h.actor.send({ type: 'PULL_PROGRESS' });
    expect(h.actor.getSnapshot().context.pullFailed).toBe(false);
    // Nothing progresses any more and the pull fails: the error is back.
    fail(new Error('stalled'));
    await advance(0);
    expect(h.actor.getSnapshot().context.pullFailed).toBe(true);
    // Progress outside a pull changes nothing.
    h.actor.send({ type: 'PULL_PROGRESS' });
    expect(h.actor.getSnapshot().context.pullFailed).toBe(true);
    h.actor.stop();
  });

  it('R1.3 the push region flushes on demand and again when the next entry is due', async () => {
    const h = startHarness();
    h.flushResult = { nextDueAt: Date.now() + 2000 };
    h.actor.send({ type: 'FLUSH' });
    await advance(0);
    expect(h.flushes).toEqual([0]);
    await advance(1999);
    expect(h.flushes).toEqual([0]);
    await advance(1);
    expect(h.flushes).toEqual([0, 2000]);
    await advance(1000); // every tick also flushes (entries queued by other tabs)
    expect(h.flushes).toEqual([0, 2000, 3000]);
    h.actor.stop();
  });
});

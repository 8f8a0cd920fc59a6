// R5.8–R5.10 without the stack: the pacer's sizes and deadlines and the backlog's progress (a cut page
// asked again inside the pull and R5.11's head: pull.test.ts). The link itself is exercised in tests/sync/slow-link.test.ts.
import { describe, expect, it } from 'vitest';
import { FIRST_BYTES_PER_ROW, FIRST_PAGE_BYTES, GROWTH_MAX, MIN_PAGE_BYTES, PullPacer, TARGET_PAGE_MS } from '../../../sync/receive/pace.ts';
import type { PullStep } from '../../../sync/receive/pull.ts';
import { backlogTracker, type PullProgress } from '../../../sync/receive/backlog.ts';

const transfer = (startedAt: number, bytes: number) => ({ startedAt, lastByteAt: bytes > 0 ? startedAt + 1 : null, bytes });

describe('R5.8 the pacer', () => {
  it('R5.8 the first page asks for the first budget at the assumed row size, its deadline no shorter than the stall time', () => {
    const p = new PullPacer({ stallMs: 15_000 });
    expect(p.plan()).toEqual({ limit: FIRST_PAGE_BYTES / FIRST_BYTES_PER_ROW, deadlineMs: 15_000, stallMs: 15_000 });
  });

  it('R5.8 a quick page grows the budget to the target time, in rows of the measured size; a slow one scales it down to the target time', () => {
    const p = new PullPacer({ stallMs: 3000 });
    // 64 rows of 3,000 bytes in 500 ms: the link carries six times that in the 3 s target, at 3,000 bytes a row.
    p.completed(transfer(0, 64 * 3000), 64, 500);
    expect(p.plan().limit).toBe(384);
    p.completed(transfer(0, 384 * 3000), 384, 6000);
    expect(p.plan().limit).toBe(192);
    // 128 rows in 6 s: twice the target, so half the bytes.
    p.completed(transfer(1000, 128 * 3000), 128, 7000);
    expect(p.plan().limit).toBe(64);
    // The deadline follows the expected transfer: 64 rows at the last page's pace take 3 s; 3× that.
    expect(p.plan().deadlineMs).toBeCloseTo(3 * (6000 * 64) / 128);
  });

  it('R19.9 R5.8 a page far quicker than the target grows the next at most GROWTH_MAX times, not twice', () => {
    const p = new PullPacer({ stallMs: 15_000 });
    // A fresh device on a fast link: the first page (64 rows of 1,000 bytes) in 100 ms would carry
    // 30 times that in the target time; the next page is 8 times the budget (twice, before R19.9).
    p.completed(transfer(0, 64 * 1000), 64, 100);
    expect(p.plan().limit).toBe(Math.floor((GROWTH_MAX * FIRST_PAGE_BYTES) / 1000));
    p.completed(transfer(0, 524 * 1000), 524, 400);
    expect(p.plan().limit).toBe(1000); // the RPC's cap
  });

  it('R5.8 the budget never grows past the server’s row cap nor falls under the minimum', () => {
    const p = new PullPacer({ stallMs: 3000, maxRows: 100 });
    for (let i = 0; i < 10; i++) p.completed(transfer(0, 100 * 200), 100, 10);
    expect(p.plan().limit).toBe(100);
    const q = new PullPacer({ stallMs: 3000 });
    for (let i = 0; i < 10; i++) q.failed(transfer(0, 0), 3000);
    expect(q.plan().limit).toBe(MIN_PAGE_BYTES / FIRST_BYTES_PER_ROW);
  });

  it('R5.8 the feed’s tail and an idle account’s empty pages do not shrink the next backlog’s pages', () => {
    const p = new PullPacer({ stallMs: 3000 });
    p.completed(transfer(0, 64 * 1000), 64, 100); // quick: 8 × 64 KiB next (R19.9), 1,000 bytes a row
    for (let i = 0; i < 5; i++) p.completed(transfer(0, 300), 0, 20, false);
    p.completed(transfer(0, 3 * 1000), 3, 20, false);
    expect(p.plan().limit).toBe(524);
  });

  it('R5.8 a server API that reports no bytes gets pages as large as allowed after the first', () => {
    const p = new PullPacer({ stallMs: 3000, maxRows: 500 });
    p.completed(transfer(0, 0), 64, 100);
    expect(p.plan().limit).toBe(500);
  });

  it('R5.9 a cut halves the budget, or sizes it to what the arrived bytes say the link carries', () => {
    const p = new PullPacer({ stallMs: 3000 });
    p.completed(transfer(0, 64 * 1000), 64, 100); // 1,000 bytes a row; budget 8 × 64 KiB (R19.9)
    p.failed(transfer(0, 0), 3000);
    expect(p.plan().limit).toBe(262);
    // 10 kB arrived in 10 s: 1 kB/s carries 3 kB in the target time, under half the budget.
    p.failed(transfer(0, 10_000), 10_000);
    expect(p.plan().limit).toBe(Math.floor(MIN_PAGE_BYTES / 1000));
    expect(TARGET_PAGE_MS).toBe(3000);
  });
});

describe('R5.10 backlog progress', () => {
  it('R5.10 counts up from where the backlog was first seen, across pulls, and clears when caught up', () => {
    const seen: (PullProgress | null)[] = [];
    const step = backlogTracker((p) => seen.push(p));
    const s = (from: number, cursor: number, head: number, hasMore: boolean): PullStep => ({ from, cursor, head, hasMore });
    step(s(100, 400, 5100, true));
    step(s(400, 900, 5100, true));
    // The pull failed here and a later one resumed from the stored cursor, with new rows meanwhile.
    step(s(900, 1340, 5200, true));
    step(s(1340, 5200, 5200, false));
    expect(seen).toEqual([{ done: 300, total: 5000 }, { done: 800, total: 5000 }, { done: 1240, total: 5100 }, null]);
  });
});

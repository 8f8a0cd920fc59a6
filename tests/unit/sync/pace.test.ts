// R5.8–R5.10 without the stack: the pacer's sizes and deadlines, a cut page asked again inside the
// pull, and the backlog's progress. The link itself is exercised in tests/sync/slow-link.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scopeToAccount } from '../../../sync/session/account-scope.ts';
import { readFeed } from '../../../sync/receive/apply.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { FIRST_BYTES_PER_ROW, FIRST_PAGE_BYTES, MIN_PAGE_BYTES, PullPacer, TARGET_PAGE_MS } from '../../../sync/receive/pace.ts';
import { pullFeed, type PullStep } from '../../../sync/receive/pull.ts';
import { backlogTracker, type PullProgress } from '../../../sync/receive/backlog.ts';
import { ServerError, type ServerApi } from '../../../sync/server/api.ts';
import { freshDb } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';

const transfer = (startedAt: number, bytes: number) => ({ startedAt, lastByteAt: bytes > 0 ? startedAt + 1 : null, bytes });

describe('R5.8 the pacer', () => {
  it('R5.8 the first page asks for the first budget at the assumed row size, its deadline no shorter than the stall time', () => {
    const p = new PullPacer({ stallMs: 15_000 });
    expect(p.plan()).toEqual({ limit: FIRST_PAGE_BYTES / FIRST_BYTES_PER_ROW, deadlineMs: 15_000, stallMs: 15_000 });
  });

  it('R5.8 a quick page doubles the budget, in rows of the measured size; a slow one scales it to the target time', () => {
    const p = new PullPacer({ stallMs: 3000 });
    // 64 rows of 3,000 bytes in 500 ms: quick, so twice the bytes next, at 3,000 bytes a row.
    p.completed(transfer(0, 64 * 3000), 64, 500);
    expect(p.plan().limit).toBe(128);
    // 128 rows in 6 s: twice the target, so half the bytes.
    p.completed(transfer(1000, 128 * 3000), 128, 7000);
    expect(p.plan().limit).toBe(64);
    // The deadline follows the expected transfer: 64 rows at the last page's pace take 3 s; 3× that.
    expect(p.plan().deadlineMs).toBeCloseTo(3 * (6000 * 64) / 128);
  });

  it('R5.8 the budget never grows past the server’s row cap nor falls under the minimum', () => {
    const p = new PullPacer({ stallMs: 3000, maxRows: 100 });
    for (let i = 0; i < 10; i++) p.completed(transfer(0, 100 * 200), 100, 10);
    expect(p.plan().limit).toBe(100);
    const q = new PullPacer({ stallMs: 3000 });
    for (let i = 0; i < 10; i++) q.failed(transfer(0, 0), 3000);
    expect(q.plan().limit).toBe(MIN_PAGE_BYTES / FIRST_BYTES_PER_ROW);
  });

  it('R5.8 a server API that reports no bytes gets pages as large as allowed after the first', () => {
    const p = new PullPacer({ stallMs: 3000, maxRows: 500 });
    p.completed(transfer(0, 0), 64, 100);
    expect(p.plan().limit).toBe(500);
  });

  it('R5.9 a cut halves the budget, or sizes it to what the arrived bytes say the link carries', () => {
    const p = new PullPacer({ stallMs: 3000 });
    p.completed(transfer(0, 64 * 1000), 64, 100); // 1,000 bytes a row; budget 128 kB
    p.failed(transfer(0, 0), 3000);
    expect(p.plan().limit).toBe(64);
    // 10 kB arrived in 10 s: 1 kB/s carries 3 kB in the target time, under half the budget.
    p.failed(transfer(0, 10_000), 10_000);
    expect(p.plan().limit).toBe(Math.floor(MIN_PAGE_BYTES / 1000));
    expect(TARGET_PAGE_MS).toBe(3000);
  });
});

let db: SyncDb;
let server: FakeServer;
const now = () => 1000;

beforeEach(async () => {
  ({ db } = await freshDb());
  server = new FakeServer();
  await scopeToAccount(db, server.accountId);
});
afterEach(() => db.close());

/** The fake server's pull, reporting each page's JSON as its bytes; `cut(n)` fails the n-th request after half its bytes. */
function metered(cut: (n: number) => 'half' | 'none' | null): ServerApi {
  const api = server.api();
  let n = 0;
  return {
    ...api,
    pull: async (since, limit, t) => {
      const page = await api.pull(since, limit);
      const bytes = JSON.stringify(page).length;
      const fault = cut(++n);
      if (fault === 'half') {
        t?.onBytes?.(Math.floor(bytes / 2));
        throw new ServerError('transient', 'terminated', null);
      }
      if (fault === 'none') throw new ServerError('transient', 'fetch failed', null);
      t?.onBytes?.(bytes);
      return page;
    },
  };
}

describe('R5.9 a cut page inside the pull', () => {
  it('R5.9 a page cut after some of its bytes is asked again from its own start; the pull completes', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 200; i++) server.addMessage(c.id, { text: 'x'.repeat(900) });
    const pacer = new PullPacer({ stallMs: 3000 });
    const r = await pullFeed(db, metered((n) => (n === 2 ? 'half' : null)), 'user-1', now, 1000, null, { pacer });
    const sinces = server.calls.filter((x) => x.method === 'pull').map((x) => x.args[0]);
    // The second request was cut: the third asks from the same place.
    expect(sinces.length).toBeGreaterThan(3);
    expect(sinces[1]).toBeGreaterThan(0);
    expect(sinces[2]).toBe(sinces[1]);
    expect(r.cursor).toBe(server.seq);
    expect(await db.messages.count()).toBe(200);
  });

  it('R5.9 a request that got no byte fails the pull as before; what earlier pages stored stays', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 200; i++) server.addMessage(c.id, { text: 'x'.repeat(900) });
    const pacer = new PullPacer({ stallMs: 3000 });
    await expect(pullFeed(db, metered((n) => (n === 2 ? 'none' : null)), 'user-1', now, 1000, null, { pacer })).rejects.toThrow('fetch failed');
    expect((await readFeed(db)).cursor).toBeGreaterThan(0);
  });

  it('R5.9 cuts that go on fail the pull after three retries, not for ever', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 200; i++) server.addMessage(c.id, { text: 'x'.repeat(900) });
    const pacer = new PullPacer({ stallMs: 3000 });
    await expect(pullFeed(db, metered(() => 'half'), 'user-1', now, 1000, null, { pacer })).rejects.toThrow('terminated');
    expect(server.calls.filter((x) => x.method === 'pull')).toHaveLength(4);
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

describe('R5.11 the head of a backlog', () => {
  const rowsOf = async () => ({ conversations: await db.conversations.count(), messages: await db.messages.count() });
  it('R5.11 read once when the first page has more, stored before the second page, the cursor unmoved by it', async () => {
    const c = server.addConversation();
    for (let i = 0; i < 200; i++) server.addMessage(c.id, { text: 'x'.repeat(900) });
    const api = server.api();
    const newest = [...server.messages.values()].slice(-30);
    let headCalls = 0;
    let storedAtSecondPage: number | null = null;
    let n = 0;
    const withHead: ServerApi = {
      ...api,
      pull: async (since, limit) => {
        if (++n === 2) storedAtSecondPage = await db.messages.where('serverId').anyOf(newest.map((m) => m.id)).count();
        return api.pull(since, limit);
      },
      pullHead: async () => {
        headCalls++;
        return { conversations: [server.conversations.get(c.id)!], messages: newest };
      },
    };
    const head = { fetched: false };
    await pullFeed(db, withHead, 'user-1', now, 1000, server.accountId, { pacer: new PullPacer({ stallMs: 3000 }), head });
    expect(headCalls).toBe(1);
    expect(storedAtSecondPage).toBe(30);
    expect(head.fetched).toBe(false); // caught up: the next backlog reads its head again
    expect(await rowsOf()).toEqual({ conversations: 1, messages: 200 });
  });

  it('R5.11 R9.9 a head with rows of another account (the server answers for another account) stores nothing of it, not even its own-looking rows', async () => {
    const c = server.addConversation();
    server.addMessage(c.id, { text: 'vlastná' });
    const api = server.api();
    const foreign = { ...server.conversations.get(c.id)!, id: 'conv-foreign', account_id: 'acc-other' };
    const ownLooking = { ...server.conversations.get(c.id)!, id: 'conv-own-looking' };
    let headDone = false;
    const hostile: ServerApi = {
      ...api,
      pull: async (since) => {
        const page = await api.pull(since, 1);
        // Hold the feed until the head is through, so what is stored then is the head's doing.
        if (headDone) return page;
        return { ...page, has_more: true };
      },
      pullHead: async () => {
        headDone = true;
        return { conversations: [ownLooking, foreign], messages: [] };
      },
    };
    await pullFeed(db, hostile, 'user-1', now, 1000, server.accountId, { head: { fetched: false } }).catch(() => undefined);
    expect(headDone).toBe(true);
    expect(await db.conversations.get('conv-foreign')).toBeUndefined();
    expect(await db.conversations.get('conv-own-looking')).toBeUndefined();
  });
});


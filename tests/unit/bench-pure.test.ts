// The benchmarks' pure pieces (bench/): the seeded data set plan, the PRNG, medians and paired
// ratios, percentiles, long-frame counting, the table's ratio column and the command line.
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../bench/args.ts';
import { messageText, planDataset } from '../../bench/dataset.ts';
import { mulberry32, uuidFrom } from '../../bench/prng.ts';
import { longFrames, median, p50p95, paired } from '../../bench/stats.ts';
import { fmtRatio, percentile, renderTable } from '../../bench/table.ts';
import { coldLine } from '../../bench/writer-pids.ts';
import { inclusiveTimes, minifiedName, selfTimes, sourceNames } from '../../bench/receiver-profile.ts';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceMapGenerator } from 'source-map-js';
import { apiPath, isoToEpochMs, overlapLine, renderHops, requestsLine, type RequestSpan, type Stamps } from '../../bench/hops.ts';

describe('data set plan', () => {
  it('has 200 conversations with 20,000 messages, one of exactly 1,000, plus a chat of 10,000', () => {
    const plan = planDataset(9);
    const main = plan.conversations.filter((_, i) => i !== plan.chat10k);
    expect(main).toHaveLength(200);
    expect(main.reduce((n, c) => n + c.messages, 0)).toBe(20_000);
    expect(plan.conversations[plan.chat1k]!.messages).toBe(1000);
    expect(plan.conversations[plan.chat10k]!.messages).toBe(10_000);
    expect(main.every((c) => c.messages > 0)).toBe(true);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(planDataset(9)).toEqual(planDataset(9));
    expect(planDataset(10).conversations[0]!.id).not.toBe(planDataset(9).conversations[0]!.id);
  });

  it('keeps at most one active conversation per specialist (the schema refuses more)', () => {
    const plan = planDataset(3);
    const active = plan.conversations.filter((c) => c.status === 'active').map((c) => c.specialist);
    expect(new Set(active).size).toBe(active.length);
    expect(new Set(plan.conversations.map((c) => c.id)).size).toBe(plan.conversations.length);
  });

  it('makes version-4 UUIDs and non-empty sentences', () => {
    const rng = mulberry32(1);
    for (let i = 0; i < 100; i++)
      expect(uuidFrom(rng)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(messageText(rng)).toMatch(/^\S.*\.$/);
  });
});

describe('statistics', () => {
  it('median of odd and even lists', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('paired ratio is the median of per-pair ratios, not the ratio of medians', () => {
    const r = paired([
      { a: 10, b: 100 },
      { a: 20, b: 100 },
      { a: 100, b: 200 },
    ]);
    expect(r.poradna).toBe(20);
    expect(r.baseline).toBe(100);
    expect(r.ratio).toBeCloseTo(0.2);
  });

  it('nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(p50p95(values)).toEqual({ p50: 50, p95: 95 });
    expect(percentile([7], 95)).toBe(7);
  });

  it('counts frames over the limit from frame timestamps', () => {
    expect(longFrames([0, 16, 33, 100, 116, 200])).toEqual({ count: 2, worst: 84 });
    expect(longFrames([0])).toEqual({ count: 0, worst: 0 });
  });
});

describe('table and command line', () => {
  it('prints small ratios with two significant digits and prefers an explicit ratio', () => {
    expect(fmtRatio(0.0123)).toBe('0.012');
    expect(fmtRatio(2.5)).toBe('2.5');
    const table = renderTable([
      {
        row: '1',
        figure: 'x',
        poradna: 10,
        baseline: 200,
        ratio: 0.04,
        unit: 'ms',
        better: 'lower',
        goal: '',
        met: true,
      },
    ]);
    expect(table).toContain('| 0.040× |');
  });

  it('parses --rows and --quick; only all rows at full length count as a full run', () => {
    expect(parseArgs([])).toMatchObject({ quick: false, explicit: false, full: true });
    const a = parseArgs(['--rows', '1,3', '--quick']);
    expect([...a.rows]).toEqual([1, 3]);
    expect(a).toMatchObject({ quick: true, explicit: true, full: false });
    expect([...parseArgs(['--rows=8']).rows]).toEqual([8]);
    expect([...parseArgs(['--rows=12']).rows]).toEqual([12]); // search (issue 40)
    expect([...parseArgs(['--rows=13']).rows]).toEqual([13]); // streamed AI replies (issue 39)
    expect([...parseArgs(['--rows=14']).rows]).toEqual([14]); // attachments (issue 38)
    // Row 14a alone (the photo bubble, R12.13), without 14b/14c's 20 MB uploads.
    expect(parseArgs(['--rows', '14a'])).toMatchObject({ only14a: true, rows: new Set([14]) });
    expect(parseArgs(['--rows', '14a,14']).only14a).toBe(false);
    expect(parseArgs(['--rows', '14']).only14a).toBe(false);
    // Row 10c alone (many devices on one stack, issue 41), without 10a/10b; row 10 runs all three.
    expect(parseArgs(['--rows', '10c'])).toMatchObject({ only10c: true, rows: new Set([10]) });
    expect(parseArgs(['--rows', '10,10c']).only10c).toBe(false);
    expect(parseArgs(['--rows', '10']).only10c).toBe(false);
    expect(() => parseArgs(['--rows', '15'])).toThrow(/unknown row/);
    expect(() => parseArgs(['--fast'])).toThrow(/unknown argument/);
  });
});

describe('row 4 per-hop breakdown', () => {
  it('reads the NOTIFY payload timestamp with its microseconds on the epoch clock', () => {
    expect(isoToEpochMs('2026-11-24T00:19:12.123456Z')).toBeCloseTo(
      Date.parse('2026-11-24T00:19:12.123Z') + 0.456,
      6,
    );
    expect(isoToEpochMs('2026-11-24T00:19:12Z')).toBe(Date.parse('2026-11-24T00:19:12Z'));
    expect(isoToEpochMs('yesterday')).toBeNaN();
  });

  it('prints each hop per build and a dash for timestamps a build does not have', () => {
    const s = (k: number, stored: number): Stamps => ({
      enter: 0,
      command: NaN,
      tx: NaN,
      reads: NaN,
      request: 5 * k,
      wire: 6 * k,
      commit: 10 * k,
      notified: 11 * k,
      sent: 13 * k,
      frame: 14 * k,
      event: NaN,
      stored,
      relaySent: NaN,
      relayFrame: NaN,
      relayed: NaN,
      painted: 20 * k,
    });
    const out = renderHops([s(1, 30), s(2, 60)], [s(1, NaN), s(1, NaN)]);
    const line = (label: string) => out.split('\n').find((l) => l.includes(label))!;
    expect(line('request started →')).toBe(
      '| request started → row written, commit (PostgREST + PostgreSQL) | 5.0 / 10.0 ms | 5.0 / 5.0 ms |',
    );
    // The send's two sub-hops split it at the request's first byte on the wire.
    expect(line('its bytes on the wire')).toContain('| 1.0 / 2.0 ms | 1.0 / 1.0 ms |');
    expect(line('on the wire → row written')).toContain('| 4.0 / 8.0 ms | 4.0 / 4.0 ms |');
    expect(line('(poradna:recv:stored)')).toContain('| 16.0 / 32.0 ms | — |');
    expect(line('(poradna:recv:event)')).toContain('| — | — |');
    expect(line('total:')).toContain('| 20.0 / 40.0 ms | 20.0 / 20.0 ms |');
  });
});

/** A send's stamps with only the request, wire and commit set (row 4's overlap lines). */
const at = (request: number, wire: number, commit: number): Stamps => ({
  enter: request - 1,
  command: NaN,
  tx: NaN,
  reads: NaN,
  request,
  wire,
  commit,
  notified: NaN,
  sent: NaN,
  frame: NaN,
  event: NaN,
  stored: NaN,
  relaySent: NaN,
  relayFrame: NaN,
  relayed: NaN,
  painted: NaN,
});

describe("row 4's overlap line", () => {
  const span = (path: string, start: number, end: number): RequestSpan => ({
    id: `${path}@${start}`,
    path,
    start,
    end,
  });

  it("splits the sends by whether another REST request was in flight while on the server, the send's own excluded", () => {
    const sends = [at(100, 101, 120), at(200, 201, 205), at(300, 301, 330)];
    const a = {
      spans: [
        span('/rpc/send_message', 100, 125),
        span('/rpc/send_message', 200, 206),
        span('/rpc/send_message', 300, 331),
      ],
    };
    // B's mark-read across the first send's server time, a pull still open (never finished) over the third.
    const b = {
      spans: [
        span('/rpc/mark_read', 95, 110),
        span('/rpc/sync_pull', 290, Infinity),
        span('/rpc/mark_read', 206, 210),
      ],
    };
    expect(overlapLine('P', sends, [a, b])).toBe(
      'P: 2 of 3 sends had another API request of A or B in flight while on the server (on the wire → row written p50 19.0 ms, the others 4.0 ms); in flight: /rpc/mark_read ×1, /rpc/sync_pull (no end seen) ×1.',
    );
  });
});

describe("row 4's cold-connection line", () => {
  it('counts a send as cold when it is the first of its backend pid, in send order; unknown pids are left out', () => {
    expect(coldLine('P', [7, 8, 7, undefined, 8, 9], [30, 40, 5, 99, 6, 50])).toBe(
      'P: 3 of 5 sends were the first send_message of their PostgREST connection (3 connections wrote): on the wire → row written p50 40.0 ms, the other sends 5.0 ms.',
    );
  });
});

describe("row 4's overlap line, since", () => {
  it('leaves out requests started before the sends began (a pull of the page before its navigation, never ended)', () => {
    const send = at(100, 101, 120);
    const old = { spans: [{ id: 'x', path: '/rpc/sync_pull', start: 10, end: Infinity }] };
    expect(overlapLine('P', [send], [old], 50)).toContain('0 of 1 sends');
    expect(overlapLine('P', [send], [old])).toContain('1 of 1 sends');
  });
});

describe("row 4's API requests", () => {
  it('names PostgREST paths and edge functions, nothing else', () => {
    expect(apiPath('http://127.0.0.1:5/rest/v1/rpc/send_message?select=*')).toBe('/rpc/send_message');
    expect(apiPath('http://127.0.0.1:5/functions/v1/conversation-read')).toBe('/functions/conversation-read');
    expect(apiPath('http://127.0.0.1:5/auth/v1/token?grant_type=refresh_token')).toBeNull();
    expect(apiPath('http://127.0.0.1:5/assets/index.js')).toBeNull();
  });

  it('counts the requests both clients started from the first send on, per send, by path', () => {
    const spans: RequestSpan[] = [
      { id: '0', path: '/rpc/sync_pull', start: 5, end: 9 }, // before the sends: left out
      { id: '1', path: '/rpc/send_message', start: 10, end: 20 },
      { id: '2', path: '/functions/conversation-read', start: 21, end: 30 },
      { id: '3', path: '/rpc/send_message', start: 40, end: 50 },
      { id: '4', path: '/functions/conversation-read', start: 51, end: 60 },
      { id: '5', path: '/functions/conversation-read', start: 52, end: 61 },
    ];
    expect(requestsLine('P', 2, spans, 10)).toBe(
      'P: 2.50 API requests per send from the two clients while the sends ran (/functions/conversation-read ×3, /rpc/send_message ×2).',
    );
    expect(requestsLine('P', 2, [], 10)).toContain('0.00 API requests per send');
    // The bench's own floor probe is counted apart, not as the app's.
    expect(requestsLine('P', 1, [...spans.slice(1, 2), { id: '9', path: '/rpc/bench_floor', start: 70, end: 71 }], 10)).toBe(
      "P: 1.00 API requests per send from the two clients while the sends ran (/rpc/send_message ×1; besides, the bench's floor probes ×1).",
    );
  });
});

describe('receiver profile (BENCH_PROFILE_RECEIVERS)', () => {
  it('sums each sample\'s time (the delta to the next sample) into its function, most first', () => {
    const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber, columnNumber: 4 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)', '', -1) },
        { id: 2, callFrame: frame('render', 'http://x/assets/ChatPage.js', 0) },
        { id: 3, callFrame: frame('', 'http://x/assets/dexie.js', 2) },
      ],
      samples: [2, 3, 2, 1],
      timeDeltas: [0, 1000, 3000, 500],
    };
    expect(selfTimes(profile, 5)).toEqual([
      { name: '(anonymous) dexie.js:3:4', ms: 3 },
      { name: 'render ChatPage.js:1:4', ms: 1.5 },
      { name: '(idle)', ms: 0 },
    ]);
    expect(selfTimes(profile, 1)).toHaveLength(1);
  });

  it('names a frame through the build folder\'s hidden source map, and keeps the minified name where there is none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-maps-'));
    await mkdir(join(dir, 'assets'));
    const gen = new SourceMapGenerator({ file: 'app.js' });
    gen.addMapping({ generated: { line: 1, column: 10 }, original: { line: 23, column: 0 }, source: '../../sync/db/summary-store.ts', name: 'refreshSummary' });
    await writeFile(join(dir, 'assets', 'app.js.map'), gen.toString());
    const frame = (url: string) => ({ functionName: 'a', url, lineNumber: 0, columnNumber: 10 });
    const profile = { nodes: [{ id: 1, callFrame: frame('http://127.0.0.1:1/assets/app.js') }, { id: 2, callFrame: frame('http://127.0.0.1:1/assets/other.js') }] };
    const name = await sourceNames(profile, dir);
    expect(name(profile.nodes[0]!.callFrame)).toBe('refreshSummary sync/db/summary-store.ts:23');
    expect(name(profile.nodes[1]!.callFrame)).toBe('a other.js:1:10');
  });

  it('counts a function once per sample wherever it is on the stack, keeping only the names asked for', () => {
    const frame = (functionName: string, lineNumber: number) => ({ functionName, url: 'http://x/assets/app.js', lineNumber, columnNumber: 0 });
    // root → outer → inner → outer (recursion), and root → other
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', 0), children: [2, 5] },
        { id: 2, callFrame: frame('outer', 1), children: [3] },
        { id: 3, callFrame: frame('inner', 2), children: [4] },
        { id: 4, callFrame: frame('outer', 1) },
        { id: 5, callFrame: frame('other', 3) },
      ],
      samples: [4, 3, 5, 1],
      timeDeltas: [0, 2000, 1000, 4000],
    };
    expect(inclusiveTimes(profile, 10, minifiedName, () => true)).toEqual([
      { name: 'outer app.js:2:0', ms: 3 },
      { name: 'other app.js:4:0', ms: 4 },
      { name: 'inner app.js:3:0', ms: 3 },
    ].sort((a, b) => b.ms - a.ms));
    expect(inclusiveTimes(profile, 10, minifiedName, (n) => n.startsWith('inner'))).toEqual([{ name: 'inner app.js:3:0', ms: 3 }]);
  });
});

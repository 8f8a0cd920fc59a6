// Row 4's per-hop breakdown: where the time from Enter on A to the text painted on B goes, one
// timestamp per hop, all on the machine's one wall clock (epoch ms):
//   Enter (page, performance.timeOrigin + now) → A's send_message request started (CDP
//   Network.requestWillBeSent wallTime; else the page's mark / Resource Timing) → row written
//   (clock_timestamp() of the realtime trigger, the NOTIFY payload's commit_timestamp: the insert's
//   AFTER trigger, the last work before COMMIT) → NOTIFY received and frame sent (the realtime
//   server's onDelivery hook, Node's performance.timeOrigin + now) → frame received on B (CDP
//   Network.webSocketFrameReceived, its monotonic timestamp mapped to the wall clock through the
//   latest requestWillBeSent's timestamp/wallTime pair) → B's marks 'poradna:recv:event' and
//   'poradna:recv:stored' ({detail:{id}}, set by the client when present; '—' when absent, as in the
//   online-only baseline) → B painted (MutationObserver, then the frame).
// Poradňa also relays a send to the user's other devices (sync/SPEC.md R6.8): Enter → A's
// 'poradna:relay:sent' mark (the broadcast pushed on A's socket) → the relay's frame received on B
// (CDP, a frame of the `user:` topic carrying the text) → B's 'poradna:recv:relay' mark → B painted.
// Where a send was relayed, B paints from that copy, so its total runs along the relay path; the
// row's own frame ('frame': a postgres_changes frame) and the DB path's hops are still shown.
import type { Page } from 'playwright-core';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import type { CDPSession } from 'playwright-core';
import { p50p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

export interface Stamps {
  enter: number;
  /** Poradňa only (sync/marks.ts): sendMessage entered, its write transaction started, its first reads answered. */
  command: number;
  tx: number;
  reads: number;
  request: number;
  /** The send request's first byte on the wire (CDP ResourceTiming sendStart): Chromium's queueing before it. */
  wire: number;
  commit: number;
  notified: number;
  sent: number;
  /** The row's postgres_changes frame on B (the DB path). */
  frame: number;
  event: number;
  stored: number;
  /** R6.8 (Poradňa): the relay pushed on A's socket, its frame on B, its copy handed to B's chat. */
  relaySent: number;
  relayFrame: number;
  relayed: number;
  painted: number;
}

/** ISO timestamp with microseconds (the NOTIFY payload's) → epoch ms with the fraction kept. */
export function isoToEpochMs(iso: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (!m) return NaN;
  const whole = Date.parse(`${m[1]}Z`);
  return whole + (m[2] ? Number(`0.${m[2]}`) * 1000 : 0);
}

/** Node's performance.now() (the realtime server runs in the bench's process) → epoch ms. */
export const nodeEpoch = (t: number) => performance.timeOrigin + t;

interface SeenRequest {
  id: string;
  url: string;
  postData: string;
  wall: number;
  /** Wall-clock ms at which its bytes started to go out (ResourceTiming sendStart), once the response came. */
  wire: number;
}

interface CdpTiming {
  requestTime: number;
  sendStart: number;
}

/** CDP Network events of one client, kept for the per-send lookups (listeners live as long as the recorder). */
/** One REST request of a client over the whole row (never cleared): when it started and ended (wall ms). */
export interface RequestSpan {
  id: string;
  path: string;
  start: number;
  end: number;
}

/**
 * A request's name in row 4's lines: PostgREST's path ('/rpc/send_message') or an edge function's
 * ('/functions/conversation-read': the sync engine reads through conversation-read, which writes the
 * read cursor as mark_read does); null for anything else (auth, assets, the realtime socket).
 */
export function apiPath(url: string): string | null {
  const m = /\/(rest|functions)\/v1(\/[^?]*)/.exec(url);
  if (!m) return null;
  return m[1] === 'rest' ? m[2]! : `/functions${m[2]!}`;
}

/**
 * Row 4: the API requests both clients of a build started from the first send on (`since`), per send
 * and by path — what one message costs the two devices in requests (the send, reads, pulls, the
 * viewing heartbeat).
 */
export function requestsLine(label: string, sends: number, spans: readonly RequestSpan[], since: number): string {
  const inside = spans.filter((x) => x.start >= since);
  // The bench's own no-op probe (hop-floors.ts, from A's page between sends) is not the app's.
  const app = inside.filter((x) => !x.path.startsWith('/rpc/bench_'));
  const probes = inside.length - app.length;
  const paths = new Map<string, number>();
  for (const x of app) paths.set(x.path, (paths.get(x.path) ?? 0) + 1);
  const what = [...paths].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${p} ×${n}`).join(', ') || 'none';
  const own = probes ? `; besides, the bench's floor probes ×${probes}` : '';
  return `${label}: ${(app.length / Math.max(1, sends)).toFixed(2)} API requests per send from the two clients while the sends ran (${what}${own}).`;
}

export class NetRecorder {
  readonly requests: SeenRequest[] = [];
  /** Every API request of the row (apiPath), kept across clear(): what else was in flight during a send. */
  readonly spans: RequestSpan[] = [];
  readonly frames: { payload: string; mono: number }[] = [];
  /** wall-clock ms minus CDP monotonic ms, from the latest requestWillBeSent. */
  private offset = NaN;
  private readonly onRequest = (e: { requestId: string; timestamp: number; wallTime: number; request: { url: string; postData?: string } }) => {
    this.offset = e.wallTime * 1000 - e.timestamp * 1000;
    this.requests.push({ id: e.requestId, url: e.request.url, postData: e.request.postData ?? '', wall: e.wallTime * 1000, wire: NaN });
    const path = apiPath(e.request.url);
    if (path) this.spans.push({ id: e.requestId, path, start: e.wallTime * 1000, end: Infinity });
  };
  private readonly onDone = (e: { requestId: string; timestamp: number }) => {
    const s = this.spans.find((x) => x.id === e.requestId);
    if (s && Number.isFinite(this.offset)) s.end = e.timestamp * 1000 + this.offset;
  };
  // ResourceTiming: requestTime is on the same monotonic clock (s) as requestWillBeSent's timestamp,
  // sendStart is ms after it; what lies between requestWillBeSent and sendStart is the browser's own
  // wait (queueing behind other requests to the host, a socket to open or pick, the service worker).
  private readonly onResponse = (e: { requestId: string; response: { timing?: CdpTiming } }) => {
    const r = this.requests.find((x) => x.id === e.requestId);
    const t = e.response.timing;
    if (r && t && t.sendStart >= 0) r.wire = t.requestTime * 1000 + t.sendStart + this.offset;
  };
  /** A page that only opens a websocket (row 4's floor page) makes no request: its handshake gives the offset. */
  private readonly onHandshake = (e: { timestamp: number; wallTime: number }) => {
    this.offset = e.wallTime * 1000 - e.timestamp * 1000;
  };
  private readonly onFrame = (e: { timestamp: number; response: { payloadData: string } }) => {
    this.frames.push({ payload: e.response.payloadData, mono: e.timestamp * 1000 });
  };

  constructor(private readonly c: { cdp: CDPSession }) {
    c.cdp.on('Network.requestWillBeSent', this.onRequest);
    c.cdp.on('Network.responseReceived', this.onResponse);
    c.cdp.on('Network.loadingFinished', this.onDone);
    c.cdp.on('Network.loadingFailed', this.onDone);
    c.cdp.on('Network.webSocketWillSendHandshakeRequest', this.onHandshake);
    c.cdp.on('Network.webSocketFrameReceived', this.onFrame);
  }

  /** Wall-clock time of the first request to a URL containing `path` started at or after `after` (ms). */
  requestAfter(path: string, after: number): number {
    return this.requests.find((r) => r.url.includes(path) && r.wall >= after - 1)?.wall ?? NaN;
  }

  /** When the first request to `path` started at or after `after` went on the wire (ms; NaN before its response). */
  wireAfter(path: string, after: number): number {
    return this.requests.find((r) => r.url.includes(path) && r.wall >= after - 1)?.wire ?? NaN;
  }

  /** Wall-clock time of the first send_message request started at or after `after` (ms). */
  sendRequestAfter(after: number): number {
    return this.requestAfter('/rpc/send_message', after);
  }

  /**
   * Wall-clock time at which the first websocket frame carrying `text` arrived; `kind` 'row': a
   * database change (postgres_changes), 'relay': another device's relayed send (a frame of a
   * `user:` topic, R6.8).
   */
  frameWith(text: string, kind?: 'row' | 'relay'): number {
    const mark = kind === 'row' ? 'postgres_changes' : kind === 'relay' ? 'realtime:user:' : '';
    const f = this.frames.find((x) => x.payload.includes(text) && x.payload.includes(mark));
    return f && Number.isFinite(this.offset) ? f.mono + this.offset : NaN;
  }

  /** Forgets the events so far; keeps the clock offset. */
  clear(): void {
    this.requests.length = 0;
    this.frames.length = 0;
  }

  stop(): void {
    this.c.cdp.off('Network.requestWillBeSent', this.onRequest);
    this.c.cdp.off('Network.responseReceived', this.onResponse);
    this.c.cdp.off('Network.loadingFinished', this.onDone);
    this.c.cdp.off('Network.loadingFailed', this.onDone);
    this.c.cdp.off('Network.webSocketWillSendHandshakeRequest', this.onHandshake);
    this.c.cdp.off('Network.webSocketFrameReceived', this.onFrame);
  }
}

/** Epoch ms of the page's first mark `name` whose detail names `id` (NaN when the build sets none). */
export async function markFor(page: Page, name: string, key: 'id' | 'correlationId', id: string): Promise<number> {
  return page.evaluate(
    ({ name, key, id }) => {
      const m = performance
        .getEntriesByName(name)
        .find((e) => ((e as PerformanceMark).detail as Record<string, unknown> | null)?.[key] === id);
      return m ? performance.timeOrigin + m.startTime : NaN;
    },
    { name, key, id },
  );
}

/** The first mark of `name` at or after `at` (epoch ms, the page's clock); NaN when none. */
export async function markAfter(page: Page, name: string, at: number): Promise<number> {
  return page.evaluate(
    ({ name, at }) => {
      const m = performance.getEntriesByName(name).find((e) => performance.timeOrigin + e.startTime >= at);
      return m ? performance.timeOrigin + m.startTime : NaN;
    },
    { name, at },
  );
}

/** The realtime server's part for one row: NOTIFY received, frame sent, row written. */
export function serverStamps(d: DeliveryTiming | undefined): Pick<Stamps, 'commit' | 'notified' | 'sent'> {
  if (!d) return { commit: NaN, notified: NaN, sent: NaN };
  return { commit: isoToEpochMs(d.commitTimestamp), notified: nodeEpoch(d.notifiedAt), sent: nodeEpoch(d.sentAt) };
}

/** A hop's key: the two timestamps it lies between. */
export type HopKey = `${keyof Stamps}→${keyof Stamps}`;

interface Hop {
  label: string;
  from: keyof Stamps;
  to: keyof Stamps;
  /** One of the hops that add up, sample by sample, to Enter → painted along the database path. */
  path?: true;
  /** One of the hops that add up to Enter → painted along the relay path (R6.8). */
  relayPath?: true;
  /** Measured only for sends that were not relayed (a relayed send paints before its row's frame). */
  unrelayed?: true;
  /** The floor measured for another hop that is the same work (hop-floors.ts keys). */
  floorOf?: HopKey;
}

const HOPS: Hop[] = [
  { label: 'Enter on A → A’s send_message request started', from: 'enter', to: 'request', path: true },
  { label: '… Enter → send command entered (poradna:send:command)', from: 'enter', to: 'command' },
  // R1.12: the solo leader starts the request before its write transaction (no IndexedDB on the way);
  // otherwise inside it, after its first reads. The transaction's marks are shown either way.
  { label: '… command → request started', from: 'command', to: 'request' },
  { label: '… command → its IndexedDB write transaction started (poradna:send:tx; after the request on the fast path)', from: 'command', to: 'tx' },
  { label: '… transaction started → its first reads answered (poradna:send:reads)', from: 'tx', to: 'reads' },
  { label: 'request started → row written, commit (PostgREST + PostgreSQL)', from: 'request', to: 'commit', path: true },
  { label: '… request started → its bytes on the wire (Chromium: queueing, socket; ResourceTiming sendStart)', from: 'request', to: 'wire' },
  { label: '… on the wire → row written (gateway, PostgREST, send_message up to its realtime trigger)', from: 'wire', to: 'commit' },
  { label: 'commit → NOTIFY received (realtime server)', from: 'commit', to: 'notified', path: true },
  { label: 'NOTIFY received → frame sent (RLS check as B, encode)', from: 'notified', to: 'sent', path: true },
  { label: 'frame sent → frame received on B (loopback, Chromium network)', from: 'sent', to: 'frame', path: true },
  { label: 'frame received on B → B’s event handled (poradna:recv:event)', from: 'frame', to: 'event' },
  { label: 'frame received on B → B’s IndexedDB commit (poradna:recv:stored)', from: 'frame', to: 'stored' },
  { label: 'frame received on B → text painted on B', from: 'frame', to: 'painted', path: true, unrelayed: true },
  { label: 'R6.8 relay: Enter on A → pushed on A’s socket (poradna:relay:sent)', from: 'enter', to: 'relaySent', relayPath: true },
  { label: '… pushed → relay frame received on B (realtime broadcast, user topic)', from: 'relaySent', to: 'relayFrame', relayPath: true },
  { label: '… relay frame on B → copy handed to the chat (poradna:recv:relay)', from: 'relayFrame', to: 'relayed' },
  { label: '… relay frame on B → text painted on B', from: 'relayFrame', to: 'painted', relayPath: true, floorOf: 'frame→painted' },
];
const PATH = HOPS.filter((h) => h.path);
const RELAY_PATH = HOPS.filter((h) => h.relayPath);
const relayedSample = (x: Stamps) => Number.isFinite(x.relayFrame) && x.relayFrame <= x.painted;
/** The path most of a build's sends took: the relay's where most were relayed. */
const pathOf = (s: Stamps[]) => (s.filter(relayedSample).length * 2 > s.length ? RELAY_PATH : PATH);
const key = (h: Hop): HopKey => h.floorOf ?? `${h.from}→${h.to}`;

const f = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));

function cell(xs: number[]): string {
  const v = xs.filter(Number.isFinite);
  if (v.length === 0) return '—';
  const { p50, p95 } = p50p95(v);
  return `${f(p50)} / ${f(p95)} ms${v.length < xs.length ? ` (${v.length}/${xs.length})` : ''}`;
}

const diffs = (s: Stamps[], h: Hop) =>
  s
    .filter((x) => !h.unrelayed || !relayedSample(x))
    .map((x) => x[h.to] - x[h.from])
    .filter(Number.isFinite);
const q = (xs: number[], p: 'p50' | 'p95') => (xs.length ? p50p95(xs)[p] : NaN);

/**
 * Markdown table: each hop's p50 / p95 per build ('—' where a build has no such timestamp) and, when
 * given, the hop's floor measured in the same run (hop-floors.ts); the total's floor is the sum of
 * the floors of the hops on the path (a sum of percentiles: a bound, not a percentile of sums).
 */
export function renderHops(poradna: Stamps[], baseline: Stamps[], floors?: Map<HopKey, number[]>): string {
  const head = floors
    ? '| row 4 hop (p50 / p95) | Poradňa | online-only baseline | floor (same run) |\n|---|---|---|---|'
    : '| row 4 hop (p50 / p95) | Poradňa | online-only baseline |\n|---|---|---|';
  const floorCell = (h: Hop) => (floors ? ` ${cell(floors.get(key(h)) ?? [])} |` : '');
  const body = HOPS.map((h) => `| ${h.label} | ${cell(diffs(poradna, h))} | ${cell(diffs(baseline, h))} |${floorCell(h)}`);
  const total = (s: Stamps[]) => cell(s.map((x) => x.painted - x.enter));
  const sum = (p: 'p50' | 'p95') => PATH.reduce((a, h) => a + q(floors?.get(key(h)) ?? [], p), 0);
  const totalFloor = floors ? ` Σ ${f(sum('p50'))} / ${f(sum('p95'))} ms (database path) |` : '';
  body.push(`| total: Enter on A → text painted on B | ${total(poradna)} | ${total(baseline)} |${totalFloor}`);
  const relayed = (s: Stamps[]) => `${s.filter(relayedSample).length}/${s.length}`;
  body.push(`| … sends painted on B from the relay (R6.8) | ${relayed(poradna)} | ${relayed(baseline)} |${floors ? ' |' : ''}`);
  return [head, ...body].join('\n');
}

/** "hop X ms (floor Y, +Z)" for the given hops, largest distance from the floor first. */
function heldBy(stamps: Stamps[], hops: Hop[], floors: Map<HopKey, number[]>, p: 'p50' | 'p95'): string {
  const rows = hops
    .map((h) => {
      const v = q(diffs(stamps, h), p);
      const fl = q(floors.get(key(h)) ?? [], p);
      return { h, v, fl, over: v - fl };
    })
    .filter((r) => Number.isFinite(r.over))
    .sort((a, b) => b.over - a.over);
  return rows.map((r) => `${r.h.label} ${f(r.v)} ms (floor ${f(r.fl)}, ${r.over >= 0 ? '+' : ''}${f(r.over)})`).join('; ');
}

/**
 * One line per missed goal of row 4: which hops hold it, each hop's distance from its floor (same
 * percentile as the goal), and the floor of the whole path, all from this run.
 */
export function missedGoalLines(rows: BenchRow[], poradna: Stamps[], baseline: Stamps[], floors: Map<HopKey, number[]>): string[] {
  // The floor of a path is the sum of its hops' floors; a relay hop with no floor of its own counts 0
  // (its floor is not measured: the sum is then a lower bound).
  const pathFloor = (path: Hop[], p: 'p50' | 'p95') => path.reduce((a, h) => a + (q(floors.get(key(h)) ?? [], p) || 0), 0);
  const own = pathOf(poradna);
  const which = own === RELAY_PATH ? 'the relay path (R6.8)' : 'the path';
  const out: string[] = [];
  for (const r of rows) {
    if (r.met) continue;
    const head = `- ${r.row} missed (${f(r.poradna)} ms; goal ${r.goal})`;
    if (r.row === '4a')
      out.push(`${head}; ${which}'s floor Σ p50 ${f(pathFloor(own, 'p50'))} ms; p50 per hop, furthest from its floor first: ${heldBy(poradna, own, floors, 'p50')}`);
    else if (r.row === '4a′')
      out.push(`${head} — the online-only build's path; floor Σ p50 ${f(pathFloor(PATH, 'p50'))} ms; p50 per hop: ${heldBy(baseline, PATH, floors, 'p50')}`);
    else if (r.row === '4b')
      out.push(`${head}; ${which}'s floor Σ p95 ${f(pathFloor(own, 'p95'))} ms; p95 per hop: ${heldBy(poradna, own, floors, 'p95')}`);
    else if (r.row === '4c') out.push(`${head}; held by ${heldBy(poradna, PATH.slice(0, 1), floors, 'p50')}`);
  }
  return out;
}

/**
 * Row 4's question behind 'on the wire → row written': was another API request (PostgREST or an edge
 * function) of either client of the build in flight while the send was on the server (its own send
 * excluded)? Before 2026-11-24 only PostgREST requests counted, so the sync engine's
 * reads, which go through the conversation-read function, were never seen here. Every write of an
 * account takes that account's change counter under its row lock until commit (the gap-free feed,
 * 20261122000300_change_feed.sql), so a mark-read of B or a pull landing then can hold the send.
 * Returns one line: how many sends overlapped, their p50 of the hop against the others', and what overlapped.
 * `since`: requests started before it are left out (a request of the page before the row's navigation
 * may never get its end reported by CDP, and would seem open through every send).
 */
export function overlapLine(label: string, stamps: Stamps[], recorders: Pick<NetRecorder, 'spans'>[], since?: number): string {
  const hit: number[] = [];
  const clear: number[] = [];
  const paths = new Map<string, number>();
  for (const s of stamps) {
    const hop = s.commit - s.wire;
    if (!Number.isFinite(hop)) continue;
    const others = recorders
      .flatMap((r) => r.spans)
      .filter((x) => x.start >= (since ?? -Infinity) && x.start < s.commit && x.end > s.wire && !(x.path === '/rpc/send_message' && Math.abs(x.start - s.request) < 1));
    (others.length ? hit : clear).push(hop);
    // A request whose end CDP never reported (loadingFinished/Failed) counts as open to the end of the row.
    for (const o of others) {
      const k = o.end === Infinity ? `${o.path} (no end seen)` : o.path;
      paths.set(k, (paths.get(k) ?? 0) + 1);
    }
  }
  const med = (xs: number[]) => (xs.length ? f(p50p95(xs).p50) : '—');
  const what = [...paths].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${p} ×${n}`).join(', ') || 'nothing';
  return `${label}: ${hit.length} of ${hit.length + clear.length} sends had another API request of A or B in flight while on the server (on the wire → row written p50 ${med(hit)} ms, the others ${med(clear)} ms); in flight: ${what}.`;
}

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
import type { Page } from 'playwright-core';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import type { Client } from './browser.ts';
import { p50p95 } from './stats.ts';

export interface Stamps {
  enter: number;
  request: number;
  commit: number;
  notified: number;
  sent: number;
  frame: number;
  event: number;
  stored: number;
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
  url: string;
  postData: string;
  wall: number;
}

/** CDP Network events of one client, kept for the per-send lookups (listeners live as long as the recorder). */
export class NetRecorder {
  readonly requests: SeenRequest[] = [];
  readonly frames: { payload: string; mono: number }[] = [];
  /** wall-clock ms minus CDP monotonic ms, from the latest requestWillBeSent. */
  private offset = NaN;
  private readonly onRequest = (e: { timestamp: number; wallTime: number; request: { url: string; postData?: string } }) => {
    this.offset = e.wallTime * 1000 - e.timestamp * 1000;
    this.requests.push({ url: e.request.url, postData: e.request.postData ?? '', wall: e.wallTime * 1000 });
  };
  private readonly onFrame = (e: { timestamp: number; response: { payloadData: string } }) => {
    this.frames.push({ payload: e.response.payloadData, mono: e.timestamp * 1000 });
  };

  constructor(private readonly c: Client) {
    c.cdp.on('Network.requestWillBeSent', this.onRequest);
    c.cdp.on('Network.webSocketFrameReceived', this.onFrame);
  }

  /** Wall-clock time of the first send_message request started at or after `after` (ms). */
  sendRequestAfter(after: number): number {
    return this.requests.find((r) => r.url.includes('/rpc/send_message') && r.wall >= after - 1)?.wall ?? NaN;
  }

  /** Wall-clock time at which the first websocket frame carrying `text` arrived. */
  frameWith(text: string): number {
    const f = this.frames.find((x) => x.payload.includes(text));
    return f && Number.isFinite(this.offset) ? f.mono + this.offset : NaN;
  }

  /** Forgets the events so far; keeps the clock offset. */
  clear(): void {
    this.requests.length = 0;
    this.frames.length = 0;
  }

  stop(): void {
    this.c.cdp.off('Network.requestWillBeSent', this.onRequest);
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

/** The realtime server's part for one row: NOTIFY received, frame sent, row written. */
export function serverStamps(d: DeliveryTiming | undefined): Pick<Stamps, 'commit' | 'notified' | 'sent'> {
  if (!d) return { commit: NaN, notified: NaN, sent: NaN };
  return { commit: isoToEpochMs(d.commitTimestamp), notified: nodeEpoch(d.notifiedAt), sent: nodeEpoch(d.sentAt) };
}

const HOPS: { label: string; from: keyof Stamps; to: keyof Stamps }[] = [
  { label: 'Enter on A → A’s send_message request started', from: 'enter', to: 'request' },
  { label: 'request started → row written, commit (PostgREST + PostgreSQL)', from: 'request', to: 'commit' },
  { label: 'commit → NOTIFY received (realtime server)', from: 'commit', to: 'notified' },
  { label: 'NOTIFY received → frame sent (RLS check as B, encode)', from: 'notified', to: 'sent' },
  { label: 'frame sent → frame received on B (loopback, Chromium network)', from: 'sent', to: 'frame' },
  { label: 'frame received on B → B’s event handled (poradna:recv:event)', from: 'frame', to: 'event' },
  { label: 'frame received on B → B’s IndexedDB commit (poradna:recv:stored)', from: 'frame', to: 'stored' },
  { label: 'frame received on B → text painted on B', from: 'frame', to: 'painted' },
  { label: 'total: Enter on A → text painted on B', from: 'enter', to: 'painted' },
];

function cell(xs: number[]): string {
  const v = xs.filter(Number.isFinite);
  if (v.length === 0) return '—';
  const { p50, p95 } = p50p95(v);
  const f = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(1));
  return `${f(p50)} / ${f(p95)} ms${v.length < xs.length ? ` (${v.length}/${xs.length})` : ''}`;
}

/** Markdown table: each hop's p50 / p95 per build ('—' where a build has no such timestamp). */
export function renderHops(poradna: Stamps[], baseline: Stamps[]): string {
  const head = '| row 4 hop (p50 / p95) | Poradňa | online-only baseline |\n|---|---|---|';
  const body = HOPS.map(({ label, from, to }) => {
    const d = (s: Stamps[]) => s.map((x) => x[to] - x[from]);
    return `| ${label} | ${cell(d(poradna))} | ${cell(d(baseline))} |`;
  });
  return [head, ...body].join('\n');
}

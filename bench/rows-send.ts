// Rows 3 and 4: sends typed into the real composer (Enter), on loopback without throttling.
// Row 3: Enter → the own bubble painted ('poradna:bubble-painted', set after the frame). Row 4:
// Enter on client A → the text painted on client B of the same account (a MutationObserver on B,
// then the frame), clocks compared through performance.timeOrigin (one machine, one system clock).
import { hopDebugLines } from './hop-debug.ts';
import type { Page } from 'playwright-core';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import type { Client } from './browser.ts';
import { HopFloors, type FloorSources } from './hop-floors.ts';
import { coldLine, WriterPids } from './writer-pids.ts';
import { markAfter, markFor, missedGoalLines, NetRecorder, overlapLine, renderHops, requestsLine, serverStamps, type Stamps } from './hops.ts';
import { p50p95 } from './stats.ts';
import { startProfiles } from './receiver-profile.ts';
import type { BenchRow } from './table.ts';

/** Types `text` into the composer, presses Enter; answers the epoch ms of the keydown and, for row 3, the ms to the bubble mark. */
export async function typeAndSend(
  page: Page,
  text: string,
  waitBubble: boolean,
): Promise<{ at: number; bubbleMs: number }> {
  const r = await page.evaluate(
    async ({ text, waitBubble }) => {
      const ta = document.querySelector<HTMLTextAreaElement>('form textarea');
      if (!ta) throw new Error('no composer');
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(ta, text);
      ta.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const t0 = performance.now();
      ta.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      let bubbleMs = NaN;
      if (waitBubble) {
        for (let i = 0; i < 2000; i++) {
          const m = performance
            .getEntriesByName('poradna:bubble-painted')
            .find((e) => (e as PerformanceMark).detail === text);
          if (m) {
            bubbleMs = m.startTime - t0;
            break;
          }
          await new Promise((r) => setTimeout(r, 2));
        }
      }
      return { at: performance.timeOrigin + t0, bubbleMs };
    },
    { text, waitBubble },
  );
  // The composer clears once the send is stored (or, in the baseline, answered): then the next.
  await page.waitForFunction(
    () => document.querySelector<HTMLTextAreaElement>('form textarea')?.value === '',
    null,
    { timeout: 30_000, polling: 10 },
  );
  return r;
}

/** On the receiving page: resolves with the epoch ms of the frame after `text` appeared. */
async function armReceiver(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { __benchSeen?: Promise<number> };
    w.__benchSeen = new Promise<number>((resolve) => {
      const done = () =>
        requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0));
      const obs = new MutationObserver(() => {
        if (document.body.textContent?.includes(text)) {
          obs.disconnect();
          done();
        }
      });
      obs.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  }, text);
}

async function received(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __benchSeen: Promise<number> }).__benchSeen);
}

export async function ownBubbleRows(
  a: Client,
  b: Client,
  chatPath: string,
  sends: number,
): Promise<BenchRow[]> {
  for (const c of [a, b]) {
    await c.page.goto(`${c.baseUrl}${chatPath}`);
    await c.page.waitForSelector('form textarea:not([disabled])');
  }
  const ta: number[] = [];
  const tb: number[] = [];
  // Blocks of ten, alternating builds.
  for (let i = 0; i < sends; i += 10) {
    for (let j = i; j < Math.min(sends, i + 10); j++)
      ta.push((await typeAndSend(a.page, `bench A ${j} ${Date.now()}`, true)).bubbleMs);
    for (let j = i; j < Math.min(sends, i + 10); j++)
      tb.push((await typeAndSend(b.page, `bench B ${j} ${Date.now()}`, true)).bubbleMs);
  }
  const pa = p50p95(ta);
  const pb = p50p95(tb);
  return [
    {
      row: '3a',
      figure: `send → own bubble painted, p50 (${sends} sends)`,
      poradna: pa.p50,
      baseline: pb.p50,
      unit: 'ms',
      better: 'lower',
      goal: 'report',
      met: true,
    },
    {
      row: '3b',
      figure: `send → own bubble painted, p95 (${sends} sends)`,
      poradna: pa.p95,
      baseline: pb.p95,
      unit: 'ms',
      better: 'lower',
      goal: '≤ 16.7 ms',
      met: pa.p95 <= 16.7,
    },
  ];
}

/** Epoch ms at which the sender's newest send_message request started (Resource Timing). */
async function lastSendRequestAt(page: Page): Promise<number> {
  return page.evaluate(() => {
    const e = performance
      .getEntriesByType('resource')
      .filter((x) => x.name.includes('send_message'))
      .pop();
    return e ? performance.timeOrigin + e.startTime : NaN;
  });
}

/** What row 4 needs besides the pages: the realtime server's deliveries and the message id of a text. */
export interface HopSources {
  /** message id → its delivery by that build's stack (onRealtimeDelivery). */
  poradna: Map<string, DeliveryTiming>;
  baseline: Map<string, DeliveryTiming>;
  idOf: (text: string) => Promise<string | undefined>;
  /** Where row 4's floor column is measured (the Poradňa stack; hop-floors.ts). */
  floors: FloorSources;
  /** Each build's web folder (its hidden source maps name the receivers' profiles, receiver-profile.ts). */
  webDirs: { poradna: string; baseline: string };
}

/** Per send: every hop's timestamp, Enter on the sender → painted on the receiver (hops.ts). */
async function crossClient(
  sender: Client,
  receiver: Client,
  tx: NetRecorder,
  rx: NetRecorder,
  label: string,
  n: number,
  deliveries: Map<string, DeliveryTiming>,
  idOf: HopSources['idOf'],
  ids: (string | undefined)[],
): Promise<Stamps[]> {
  const out: Stamps[] = [];
  for (let i = 0; i < n; i++) {
    const text = `bench ${label} ${i} ${Date.now()}`;
    tx.clear();
    rx.clear();
    await armReceiver(receiver.page, text);
    const { at } = await typeAndSend(sender.page, text, false);
    const painted = await received(receiver.page);
    const id = await idOf(text);
    ids.push(id);
    let request = tx.sendRequestAfter(at);
    if (!Number.isFinite(request)) request = await lastSendRequestAt(sender.page);
    out.push({
      enter: at,
      command: await markAfter(sender.page, 'poradna:send:command', at),
      tx: await markAfter(sender.page, 'poradna:send:tx', at),
      reads: await markAfter(sender.page, 'poradna:send:reads', at),
      request,
      wire: tx.wireAfter('/rpc/send_message', at),
      ...serverStamps(id ? deliveries.get(id) : undefined),
      frame: rx.frameWith(text, 'row'),
      event: id ? await markFor(receiver.page, 'poradna:recv:event', 'id', id) : NaN,
      stored: id ? await markFor(receiver.page, 'poradna:recv:stored', 'id', id) : NaN,
      relaySent: await markAfter(sender.page, 'poradna:relay:sent', at),
      relayFrame: rx.frameWith(text, 'relay'),
      relayed: await markAfter(receiver.page, 'poradna:recv:relay', at),
      painted,
    });
  }
  return out;
}

/** a/a2: two Poradňa clients of one account; b/b2: two baseline clients; all on the chat. */
export async function crossClientRows(
  a: Client,
  a2: Client,
  b: Client,
  b2: Client,
  chatPath: string,
  sends: number,
  sources: HopSources,
  notes: string[],
): Promise<BenchRow[]> {
  // Recording from before the navigation: the page's own requests give each receiver's CDP clock
  // its wall-clock offset (the online-only receiver makes no request while it only listens).
  const [ra, ra2, rb, rb2] = [a, a2, b, b2].map((c) => new NetRecorder(c)) as [
    NetRecorder,
    NetRecorder,
    NetRecorder,
    NetRecorder,
  ];
  const sa: Stamps[] = [];
  const sb: Stamps[] = [];
  const ida: (string | undefined)[] = [];
  const idb: (string | undefined)[] = [];
  let floors: HopFloors | undefined;
  let sendsFrom: number | undefined;
  const pids = await WriterPids.open(sources.floors.stack.databaseUrl);
  try {
    for (const c of [a, a2, b, b2]) {
      await c.page.goto(`${c.baseUrl}${chatPath}`);
      await c.page.waitForSelector('form textarea:not([disabled])');
    }
    // The floors: Enter in A's page, the receive side in a browser of their own (hop-floors.ts).
    floors = await HopFloors.open(sources.floors, a, ra);
    // Let realtime subscriptions settle before the first send.
    await new Promise((r) => setTimeout(r, 2000));
    const profiled = await startProfiles([
      { label: 'poradna-receiver', client: a2, webDir: sources.webDirs.poradna },
      { label: 'baseline-receiver', client: b2, webDir: sources.webDirs.baseline },
    ]);
    sendsFrom = Date.now();
    // Blocks of five: Poradňa, baseline, the floors; drift on the shared machine falls on all three.
    for (let i = 0; i < sends; i += 5) {
      const n = Math.min(5, sends - i);
      sa.push(...(await crossClient(a, a2, ra, ra2, 'A', n, sources.poradna, sources.idOf, ida)));
      sb.push(...(await crossClient(b, b2, rb, rb2, 'B', n, sources.baseline, sources.idOf, idb)));
      await floors.sample(n);
    }
    if (profiled) for (const line of await profiled()) console.log(line);
  } finally {
    for (const r of [ra, ra2, rb, rb2]) r.stop();
    await pids.close();
    await floors?.close().catch((err: unknown) => console.warn('row 4 floors close:', err));
  }
  if (!floors) throw new Error('row 4: the floors were never opened'); // (the try above threw first)
  const pa = p50p95(sa.map((s) => s.painted - s.enter));
  const pb = p50p95(sb.map((s) => s.painted - s.enter));
  // Where row 4's time goes: the sender's part (Enter → its send_message request started).
  const qa = p50p95(sa.map((s) => s.request - s.enter).filter(Number.isFinite));
  const qb = p50p95(sb.map((s) => s.request - s.enter).filter(Number.isFinite));
  const rt = p50p95(floors.roundTrip);
  const out: BenchRow[] = [
    {
      row: '4a',
      figure: `send on A → painted on B, p50 (${sends} sends)`,
      poradna: pa.p50,
      baseline: pb.p50,
      unit: 'ms',
      better: 'lower',
      goal: '≤ 0.8× baseline and ≤ 60 ms',
      met: pa.p50 <= 60 && pa.p50 <= 0.8 * pb.p50,
    },
    {
      row: '4a′',
      figure: `  … online-only build's own A → B p50 (the stack's path), shown against its goal of 60 ms`,
      poradna: pb.p50,
      baseline: 60,
      unit: 'ms',
      better: 'lower',
      goal: '≤ 60 ms',
      met: pb.p50 <= 60,
    },
    {
      row: '4b',
      figure: `send on A → painted on B, p95 (${sends} sends)`,
      poradna: pa.p95,
      baseline: pb.p95,
      unit: 'ms',
      better: 'lower',
      goal: '≤ 100 ms',
      met: pa.p95 <= 100,
    },
    {
      row: '4c',
      figure: `send on A → A's request started, p50 (${sends} sends)`,
      poradna: qa.p50,
      baseline: qb.p50,
      unit: 'ms',
      better: 'lower',
      goal: '≤ 15 ms',
      met: qa.p50 <= 15,
    },
  ];
  if (process.env.BENCH_DEBUG_HOPS) {
    for (const line of hopDebugLines('Poradňa', sa, [...ra.spans, ...ra2.spans])) console.log(line);
    for (const line of hopDebugLines('Baseline', sb, [...rb.spans, ...rb2.spans])) console.log(line);
  }
  const missed = missedGoalLines(out, sa, sb, floors.samples);
  const serverHop = (s: Stamps[]) => s.map((x) => x.commit - x.wire);
  const overlaps = [
    overlapLine('Poradňa', sa, [ra, ra2], sendsFrom),
    overlapLine('Baseline', sb, [rb, rb2], sendsFrom),
    requestsLine('Poradňa', sends, [...ra.spans, ...ra2.spans], sendsFrom ?? 0),
    requestsLine('Baseline', sends, [...rb.spans, ...rb2.spans], sendsFrom ?? 0),
    coldLine('Poradňa', ida.map((id) => pids.pidOf(id)), serverHop(sa)),
    coldLine('Baseline', idb.map((id) => pids.pidOf(id)), serverHop(sb)),
  ].join('\n');
  notes.push(
    `Row 4, per hop (${sends} sends per build; Poradňa A → A2, baseline B → B2; floors: hop-floors.ts, ` +
      `${sends} samples each, interleaved with the sends):\n\n${renderHops(sa, sb, floors.samples)}\n\n` +
      `The no-op RPC's full round trip from A's page (request started → response read): p50 ${rt.p50.toFixed(1)} / p95 ${rt.p95.toFixed(1)} ms.\n\n${overlaps}` +
      (missed.length ? `\n\nRow 4's missed goals, pinned to the hops that hold them (this run's floors):\n\n${missed.join('\n')}` : ''),
  );
  return out;
}

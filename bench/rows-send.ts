// Rows 3 and 4: sends typed into the real composer (Enter), on loopback without throttling.
// Row 3: Enter → the own bubble painted ('poradna:bubble-painted', set after the frame). Row 4:
// Enter on client A → the text painted on client B of the same account (a MutationObserver on B,
// then the frame), clocks compared through performance.timeOrigin (one machine, one system clock).
import type { Page } from 'playwright-core';
import type { Client } from './browser.ts';
import { p50p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

/** Types `text` into the composer, presses Enter; answers the epoch ms of the keydown and, for row 3, the ms to the bubble mark. */
async function typeAndSend(page: Page, text: string, waitBubble: boolean): Promise<{ at: number; bubbleMs: number }> {
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
          const m = performance.getEntriesByName('poradna:bubble-painted').find((e) => (e as PerformanceMark).detail === text);
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
  await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('form textarea')?.value === '', null, { timeout: 30_000, polling: 10 });
  return r;
}

/** On the receiving page: resolves with the epoch ms of the frame after `text` appeared. */
async function armReceiver(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { __benchSeen?: Promise<number> };
    w.__benchSeen = new Promise<number>((resolve) => {
      const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0));
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

export async function ownBubbleRows(a: Client, b: Client, chatPath: string, sends: number): Promise<BenchRow[]> {
  for (const c of [a, b]) {
    await c.page.goto(`${c.baseUrl}${chatPath}`);
    await c.page.waitForSelector('form textarea:not([disabled])');
  }
  const ta: number[] = [];
  const tb: number[] = [];
  // Blocks of ten, alternating builds.
  for (let i = 0; i < sends; i += 10) {
    for (let j = i; j < Math.min(sends, i + 10); j++) ta.push((await typeAndSend(a.page, `bench A ${j} ${Date.now()}`, true)).bubbleMs);
    for (let j = i; j < Math.min(sends, i + 10); j++) tb.push((await typeAndSend(b.page, `bench B ${j} ${Date.now()}`, true)).bubbleMs);
  }
  const pa = p50p95(ta);
  const pb = p50p95(tb);
  return [
    { row: '3a', figure: `send → own bubble painted, p50 (${sends} sends)`, poradna: pa.p50, baseline: pb.p50, unit: 'ms', better: 'lower', goal: 'report', met: true },
    { row: '3b', figure: `send → own bubble painted, p95 (${sends} sends)`, poradna: pa.p95, baseline: pb.p95, unit: 'ms', better: 'lower', goal: '≤ 16.7 ms', met: pa.p95 <= 16.7 },
  ];
}

/** Epoch ms at which the sender's newest send_message request started (Resource Timing). */
async function lastSendRequestAt(page: Page): Promise<number> {
  return page.evaluate(() => {
    const e = performance.getEntriesByType('resource').filter((x) => x.name.includes('send_message')).pop();
    return e ? performance.timeOrigin + e.startTime : NaN;
  });
}

/** Per send: Enter on the sender → painted on the receiver, and Enter → the sender's request started. */
async function crossClient(sender: Client, receiver: Client, label: string, n: number): Promise<{ total: number[]; onWire: number[] }> {
  const total: number[] = [];
  const onWire: number[] = [];
  for (let i = 0; i < n; i++) {
    const text = `bench ${label} ${i} ${Date.now()}`;
    await armReceiver(receiver.page, text);
    const { at } = await typeAndSend(sender.page, text, false);
    total.push((await received(receiver.page)) - at);
    onWire.push((await lastSendRequestAt(sender.page)) - at);
  }
  return { total, onWire };
}

/** a/a2: two Poradňa clients of one account; b/b2: two baseline clients; all on the chat. */
export async function crossClientRows(a: Client, a2: Client, b: Client, b2: Client, chatPath: string, sends: number): Promise<BenchRow[]> {
  for (const c of [a, a2, b, b2]) {
    await c.page.goto(`${c.baseUrl}${chatPath}`);
    await c.page.waitForSelector('form textarea:not([disabled])');
  }
  // Let realtime subscriptions settle before the first send.
  await new Promise((r) => setTimeout(r, 2000));
  const ta: number[] = [];
  const tb: number[] = [];
  const wa: number[] = [];
  const wb: number[] = [];
  for (let i = 0; i < sends; i += 5) {
    const ra = await crossClient(a, a2, 'A', Math.min(5, sends - i));
    const rb = await crossClient(b, b2, 'B', Math.min(5, sends - i));
    ta.push(...ra.total);
    wa.push(...ra.onWire);
    tb.push(...rb.total);
    wb.push(...rb.onWire);
  }
  const pa = p50p95(ta);
  const pb = p50p95(tb);
  // Where row 4's time goes: the sender's part (Enter → its send_message request started).
  const qa = p50p95(wa.filter(Number.isFinite));
  const qb = p50p95(wb.filter(Number.isFinite));
  return [
    { row: '4a', figure: `send on A → painted on B, p50 (${sends} sends)`, poradna: pa.p50, baseline: pb.p50, unit: 'ms', better: 'lower', goal: 'report', met: true },
    { row: '4b', figure: `send on A → painted on B, p95 (${sends} sends)`, poradna: pa.p95, baseline: pb.p95, unit: 'ms', better: 'lower', goal: '≤ 50 ms', met: pa.p95 <= 50 },
    { row: '4c', figure: `send on A → A's request started, p50 (${sends} sends)`, poradna: qa.p50, baseline: qb.p50, unit: 'ms', better: 'lower', goal: 'report', met: true },
  ];
}

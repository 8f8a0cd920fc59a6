// Row 13 (issue 39): a streamed AI reply as the member sees it. An OpenAI-compatible double streams a
// scripted answer (tests/doubles/ai-provider.ts, stamping each chunk it writes) into the real worker
// of a stack serving the build; a signed-in Chromium page watches the chat. Per answer:
//   13a/13b  the provider's first token written → the first characters on screen (the animation
//            frame after the bubble's text changed), p50 and p95;
//   13c      the reply's extra latency over the provider's own stream: (last characters on screen −
//            provider request received) against (provider's end − request received), per answer.
// 13a/13b for both builds (the Poradňa build and the online-only baseline, each on a stack of its
// own); 13c for Poradňa alone, since the baseline never shows an answer grow past its first piece.
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../e2e/playwright.config.ts';
import { startAiProviderDouble, type AiProviderDouble } from '../tests/doubles/ai-provider.ts';
import { startTestStack } from '../tests/helpers/stack.ts';
import { median, p50p95 } from './stats.ts';
import type { BenchRow } from './table.ts';

const AI_CHAT = '00000000-0000-4000-b000-000000000001'; // demo's chat with the AI assistant (seed.sql)
const CHUNKS = 20;
const CHUNK_MS = 50;

interface Sample {
  firstPaintMs: number;
  /** Provider request received → last characters painted, and → the provider's end (ms). */
  lastPaintMs: number;
  providerMs: number;
}

interface Watch {
  first: number | null;
  last: number | null;
}

/** Installs the page's watcher for one answer: epoch ms of the frame after each marker appeared. */
async function watch(page: Page, firstMark: string, lastMark: string): Promise<void> {
  await page.evaluate(
    ([a, z]) => {
      const w = { first: null as number | null, last: null as number | null };
      (globalThis as unknown as { __aiWatch: typeof w }).__aiWatch = w;
      const frame = (set: (t: number) => void) => requestAnimationFrame((t) => set(performance.timeOrigin + t));
      const look = () => {
        for (const b of document.querySelectorAll<HTMLElement>('[data-testid="bubble"]')) {
          const text = b.textContent ?? '';
          if (w.first === null && text.includes(a!)) {
            w.first = -1;
            frame((t) => (w.first = t));
          }
          if (w.last === null && text.includes(z!) && !b.dataset.ai) {
            w.last = -1;
            frame((t) => (w.last = t));
            observer.disconnect();
          }
        }
      };
      const observer = new MutationObserver(look);
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    },
    [firstMark, lastMark],
  );
}

async function oneAnswer(page: Page, ai: AiProviderDouble, run: number, wantLast: boolean): Promise<Sample> {
  const a = `Zač${run}q`;
  const z = `Kon${run}q`;
  const chunks = Array.from({ length: CHUNKS }, (_, i) => (i === 0 ? `${a} odpoveď` : i === CHUNKS - 1 ? ` ${z}.` : ` slovo${i}`));
  ai.setStream({ chunks, delayMs: CHUNK_MS, then: 'done' });
  const before = ai.calls.length;
  await watch(page, a, z);
  const composer = page.getByRole('textbox', { name: 'Správa' });
  await composer.waitFor({ state: 'visible' });
  await page.waitForFunction(() => !document.querySelector('textarea')?.disabled, null, { timeout: 60_000 });
  await composer.fill(`Otázka číslo ${run}: ako na kampaň?`);
  await composer.press('Enter');
  await page.waitForFunction(
    (last) => {
      const w = (globalThis as unknown as { __aiWatch: Watch }).__aiWatch;
      return w.first !== null && w.first > 0 && (!last || (w.last !== null && w.last > 0));
    },
    wantLast,
    { timeout: 60_000, polling: 50 },
  );
  const w = await page.evaluate(() => (globalThis as unknown as { __aiWatch: Watch }).__aiWatch);
  const call = ai.calls[before];
  if (!call || call.sentAt.length === 0) throw new Error('row 13: the provider double saw no streamed answer');
  // The answer ends (and the composer opens) before the next question is asked.
  while (call.endedAt === undefined) await new Promise((r) => setTimeout(r, 20));
  return { firstPaintMs: w.first! - call.sentAt[0]!, lastPaintMs: wantLast ? w.last! - call.at : NaN, providerMs: call.endedAt - call.at };
}

/** `wantLast`: the build shows the growing answer to its end (the online-only baseline subscribes to
 *  INSERTs alone, as the specification's app did, so it shows the first piece and no more). */
async function measureBuild(webDir: string, runs: number, wantLast: boolean, log: (s: string) => void): Promise<Sample[]> {
  const ai = await startAiProviderDouble();
  const stack = await startTestStack({ webDir, logLevel: 'quiet', ai: { baseUrl: ai.url, apiKey: 'bench-key', model: 'bench-model' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  try {
    const script = await (await fetch(`${stack.url}/env.js`)).text();
    const announced = /"supabaseUrl"\s*:\s*"([^"]+)"/.exec(script)?.[1];
    const origin = announced ? new URL(announced).origin : stack.url;
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'sk-SK' });
    // tsx compiles functions handed to page.evaluate with keepNames (a __name helper; browser.ts).
    await context.addInitScript('globalThis.__name ??= (f) => f;');
    const page = await context.newPage();
    await page.goto(`${origin}/auth/login`);
    await page.getByLabel('E-mail', { exact: true }).fill('demo@poradna.test');
    await page.getByLabel('Heslo', { exact: true }).fill('poradna123');
    await page.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
    await page.waitForURL(/\/app\/chats/, { timeout: 60_000 });
    await page.goto(`${origin}/app/chats/${AI_CHAT}`);
    await page.getByTestId('message').first().waitFor({ timeout: 60_000 });
    const samples: Sample[] = [];
    // The first answer warms the worker, the connection and the page; it is not counted.
    for (let run = 0; run <= runs; run++) {
      const s = await oneAnswer(page, ai, run, wantLast);
      if (run > 0) samples.push(s);
    }
    log(`  ${webDir}: ${samples.map((s) => Math.round(s.firstPaintMs)).join(', ')} ms`);
    return samples;
  } finally {
    await browser.close();
    await stack.destroy();
    await ai.stop();
  }
}

export async function aiStreamRows(opts: { webDir: string; baselineDir: string; quick: boolean; log: (s: string) => void }): Promise<BenchRow[]> {
  const runs = opts.quick ? 5 : 20;
  opts.log(`row 13: ${runs} streamed answers per build`);
  const poradna = await measureBuild(resolve(opts.webDir), runs, true, opts.log);
  const baseline = await measureBuild(resolve(opts.baselineDir), runs, false, opts.log);
  const first = { a: p50p95(poradna.map((s) => s.firstPaintMs)), b: p50p95(baseline.map((s) => s.firstPaintMs)) };
  const whole = { a: median(poradna.map((s) => s.lastPaintMs)), provider: median(poradna.map((s) => s.providerMs)) };
  const ratio = median(poradna.map((s) => s.lastPaintMs / s.providerMs));
  return [
    { row: '13a', figure: "AI reply: provider's first token → first characters painted, p50", poradna: first.a.p50, baseline: first.b.p50, unit: 'ms', better: 'lower', goal: '≤ 150 ms', met: first.a.p50 <= 150 },
    { row: '13b', figure: "AI reply: provider's first token → first characters painted, p95", poradna: first.a.p95, baseline: first.b.p95, unit: 'ms', better: 'lower', goal: '≤ 150 ms', met: first.a.p95 <= 150 },
    {
      row: '13c',
      figure: `AI reply: provider request → last characters painted (baseline: the provider's own stream of ${CHUNKS} × ${CHUNK_MS} ms), median`,
      poradna: whole.a,
      baseline: whole.provider,
      unit: 'ms',
      better: 'lower',
      goal: '≤ 1.10× (≤ 10 % extra)',
      met: ratio <= 1.1,
      ratio,
    },
  ];
}

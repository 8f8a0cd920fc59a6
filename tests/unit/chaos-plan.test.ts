// The chaos run's pure pieces: the fault mix of the proxy, each context's plan, the kill points and
// the command-line flags (scripts/chaos).
import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULTS, decideFault, isExempt, wsCutDelay, type FaultKind } from '../../scripts/chaos/faults.ts';
import { parseOptions } from '../../scripts/chaos/options.ts';
import { contextPlan, killPoints, type Step } from '../../scripts/chaos/plan.ts';
import { mulberry32, substream } from '../../scripts/chaos/prng.ts';

describe('fault mix', () => {
  it('drops about 20 % of API requests, all three kinds, and delays the rest by 0–3 s', () => {
    const rng = mulberry32(42);
    const n = 20_000;
    const counts: Record<FaultKind, number> = { pass: 0, 'drop-before': 0, 'reject-503': 0, 'drop-after': 0, hang: 0 };
    let maxDelay = 0;
    for (let i = 0; i < n; i++) {
      const d = decideFault(rng, 'POST', '/rest/v1/rpc/send_message', DEFAULT_FAULTS);
      counts[d.kind]++;
      maxDelay = Math.max(maxDelay, d.delayMs);
      expect(d.delayMs).toBeGreaterThanOrEqual(0);
    }
    const dropped = (n - counts.pass) / n;
    expect(dropped).toBeGreaterThan(0.18);
    expect(dropped).toBeLessThan(0.22);
    for (const k of ['drop-before', 'reject-503', 'drop-after'] as const) expect(counts[k] / n).toBeGreaterThan(0.05);
    expect(maxDelay).toBeLessThan(3000);
    expect(maxDelay).toBeGreaterThan(2900);
    expect(counts.hang).toBe(0);
  });

  it('black-holes requests only when asked (--hang), and then about that share', () => {
    const rng = mulberry32(8);
    let hung = 0;
    for (let i = 0; i < 10_000; i++) if (decideFault(rng, 'POST', '/rest/v1/rpc/send_message', { ...DEFAULT_FAULTS, hangRate: 0.05 }).kind === 'hang') hung++;
    expect(hung / 10_000).toBeGreaterThan(0.04);
    expect(hung / 10_000).toBeLessThan(0.06);
    expect(parseOptions(['--hang', '2'], 1).hangRate).toBe(0.02);
    expect(parseOptions([], 1).hangRate).toBe(0);
    expect(() => parseOptions(['--hang', '200'], 1)).toThrow(/--hang/);
  });

  it('never faults the app shell but faults every API prefix, websockets included', () => {
    for (const p of ['/', '/app/chats/x', '/assets/index-abc.js', '/env.js', '/sw.js', '/manifest.webmanifest']) {
      expect(isExempt('GET', p)).toBe(true);
      expect(decideFault(mulberry32(1), 'GET', p, { ...DEFAULT_FAULTS, dropRate: 1 })).toEqual({ kind: 'pass', delayMs: 0 });
    }
    for (const p of ['/rest/v1/messages', '/auth/v1/token', '/functions/v1/x', '/realtime/v1/websocket']) {
      expect(isExempt('GET', p)).toBe(false);
      expect(decideFault(mulberry32(1), 'GET', p, { ...DEFAULT_FAULTS, dropRate: 1 }).kind).not.toBe('pass');
    }
    expect(isExempt('POST', '/')).toBe(false);
  });

  it('cuts websockets after 2–8 s', () => {
    const rng = mulberry32(3);
    for (let i = 0; i < 1000; i++) {
      const ms = wsCutDelay(rng, DEFAULT_FAULTS);
      expect(ms).toBeGreaterThanOrEqual(2000);
      expect(ms).toBeLessThan(8000);
    }
  });
});

function check(steps: Step[], messages: number, conversations: number): void {
  let online = true;
  let conv = -1;
  const sends: number[] = [];
  let reloads = 0;
  for (const s of steps) {
    if (s.kind === 'offline') {
      expect(online).toBe(true);
      online = false;
    } else if (s.kind === 'online') {
      expect(online).toBe(false);
      online = true;
    } else if (s.kind === 'open') {
      expect(s.conv).toBeGreaterThanOrEqual(0);
      expect(s.conv).toBeLessThan(conversations);
      conv = s.conv;
    } else if (s.kind === 'send') {
      expect(s.conv).toBe(conv);
      sends.push(s.index);
    } else reloads++;
  }
  expect(online).toBe(true);
  expect(sends).toEqual(Array.from({ length: messages }, (_, i) => i));
  expect(steps[0]).toEqual({ kind: 'open', conv: 0 });
  expect(reloads).toBeGreaterThanOrEqual(1);
}

describe('context plan', () => {
  it('sends every index once in order into the open conversation, offline/online alternate and end online', () => {
    for (let seed = 0; seed < 100; seed++) {
      const messages = 1 + (seed % 120);
      check(contextPlan(substream(seed, 'ctx-0'), messages, 2), messages, 2);
      check(contextPlan(substream(seed, 'ctx-1'), messages, 1), messages, 1);
    }
  });

  it('goes offline, reloads and switches conversations in a long plan; one seed gives one plan', () => {
    const a = contextPlan(substream(9, 'ctx-3'), 100, 2);
    expect(a.filter((s) => s.kind === 'offline').length).toBeGreaterThan(0);
    expect(a.filter((s) => s.kind === 'open').length).toBeGreaterThan(1);
    expect(contextPlan(substream(9, 'ctx-3'), 100, 2)).toEqual(a);
    expect(contextPlan(substream(9, 'ctx-4'), 100, 2)).not.toEqual(a);
  });

  it('kills the Node stack, then PostgreSQL, part way through; none with --no-kill', () => {
    expect(killPoints(1000, true)).toEqual([
      { atSent: 350, kind: 'node' },
      { atSent: 700, kind: 'postgres' },
    ]);
    const short = killPoints(60, true);
    expect(short.map((k) => k.kind)).toEqual(['node', 'postgres']);
    expect(short[0]!.atSent).toBeLessThan(short[1]!.atSent);
    expect(short[1]!.atSent).toBeLessThan(60);
    expect(killPoints(1000, false)).toEqual([]);
  });
});

describe('flags', () => {
  it('full by default, short with --short, each flag overrides', () => {
    expect(parseOptions([], 5)).toMatchObject({ contexts: 10, accounts: 3, messages: 100, seed: 5, kills: true });
    expect(parseOptions(['--short'], 5)).toMatchObject({ contexts: 4, accounts: 2, messages: 15, kills: true });
    expect(parseOptions(['--short', '--contexts', '6', '--messages', '3', '--seed', '11', '--no-kill'], 5)).toMatchObject({
      contexts: 6,
      messages: 3,
      seed: 11,
      kills: false,
    });
    expect(() => parseOptions(['--contexts', '0'], 1)).toThrow(/--contexts/);
    expect(() => parseOptions(['--bogus'], 1)).toThrow(/unknown flag/);
    expect(() => parseOptions(['--seed'], 1)).toThrow(/needs a value/);
  });
});

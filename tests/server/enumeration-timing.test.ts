// Account enumeration through registration (the auth-link function the register screen calls) and
// forgot-password (POST /auth/v1/recover): an address with an account and one without get the same
// status, the same body and the same headers (but Date), and the response times are within noise.
// Timing criterion: samples are taken in pairs (one existing, one new, in random order, back to back),
// so the load of a shared 2-core machine hits both halves of a pair alike; the paired differences d
// must have |median(d)| < max(FLOOR_MS, 4 × SE), SE = 1.858 × MAD(d) / √n being the standard error of
// a median estimated robustly (1.2533 × 1.4826 × MAD). With quiet-machine noise (MAD(d) ≈ 10–20 ms) the
// old 44 ms registration gap was 2–4× over the limit; the self-check below shows both directions.
// Own stack with very high auth rate limits: ~100 requests to one address must not hit a 429.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { anonClient, uniqueEmail } from '../helpers/clients.ts';

const SAMPLES = 40;
const WARMUP = 4;
const FLOOR_MS = 5;

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ authRateLimit: { perIp: 100_000, perEmail: 100_000, windowMs: 60_000 } });
});
afterAll(async () => {
  await stack?.destroy();
});

interface Reply {
  status: number;
  body: string;
  /** Every response header but Date, sorted: the two kinds of address must not differ here either. */
  headers: string;
  ms: number;
}

async function timedPost(url: string, token: string, body: unknown): Promise<Reply> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  const headers = [...res.headers].filter(([k]) => k !== 'date').map(([k, v]) => `${k}: ${v}`).sort().join('\n');
  return { status: res.status, body: text, headers, ms };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function timingVerdict(existing: number[], fresh: number[]) {
  const d = existing.map((x, i) => x - fresh[i]!);
  const medianDiff = median(d);
  const madDiff = median(d.map((x) => Math.abs(x - medianDiff)));
  const se = (1.858 * madDiff) / Math.sqrt(d.length);
  const allowed = Math.max(FLOOR_MS, 4 * se);
  return { medianExisting: median(existing), medianNew: median(fresh), diff: Math.abs(medianDiff), madDiff, allowed };
}

/** Interleaves existing/new requests in a random order per pair; warm-up pairs are dropped. */
async function sample(send: (kind: 'existing' | 'new') => Promise<Reply>) {
  const out = { existing: [] as Reply[], new: [] as Reply[] };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const order: ('existing' | 'new')[] = Math.random() < 0.5 ? ['existing', 'new'] : ['new', 'existing'];
    for (const kind of order) {
      const r = await send(kind);
      if (i >= WARMUP) out[kind].push(r);
    }
  }
  return out;
}

function expectIndistinguishable(name: string, s: { existing: Reply[]; new: Reply[] }) {
  const all = [...s.existing, ...s.new];
  expect(new Set(all.map((r) => r.status)).size).toBe(1);
  expect(new Set(all.map((r) => r.body)).size).toBe(1);
  expect(new Set(all.map((r) => r.headers)).size).toBe(1);
  expect(all[0]!.status).toBe(200);
  const v = timingVerdict(
    s.existing.map((r) => r.ms),
    s.new.map((r) => r.ms),
  );
  console.log(
    `${name}: median existing ${v.medianExisting.toFixed(1)} ms, new ${v.medianNew.toFixed(1)} ms, ` +
      `|median paired diff| ${v.diff.toFixed(1)} ms, MAD of diffs ${v.madDiff.toFixed(1)} ms, allowed ${v.allowed.toFixed(1)} ms (n=${SAMPLES} each)`,
  );
  expect(v.diff).toBeLessThan(v.allowed);
}

describe('account enumeration', () => {
  it('the criterion flags a real difference and passes noise (self-check)', () => {
    // Seeded uniform noise of a given width around a base (width 13 gives MAD(d) ≈ 4 ms, 61 ≈ 18 ms).
    const noise = (base: number, width: number, seed: number) => {
      let x = seed * 2654435761;
      return Array.from({ length: SAMPLES }, () => {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        return base + (x / 2 ** 32 - 0.5) * width;
      });
    };
    const same = timingVerdict(noise(100, 13, 1), noise(100, 13, 2));
    expect(same.diff).toBeLessThan(same.allowed);
    const slow = timingVerdict(noise(100, 13, 1), noise(125, 13, 2));
    expect(slow.diff).toBeGreaterThanOrEqual(slow.allowed);
    // The registration gap found before the floor (310 vs 354 ms) with quiet-machine noise (±30 ms).
    const oldGap = timingVerdict(noise(310, 61, 1), noise(354, 61, 2));
    expect(oldGap.diff).toBeGreaterThanOrEqual(oldGap.allowed);
    const sameLoud = timingVerdict(noise(600, 61, 1), noise(600, 61, 2));
    expect(sameLoud.diff).toBeLessThan(sameLoud.allowed);
  });

  it('forgot-password answers an existing and an unknown address alike, in the same time', async () => {
    const existing = uniqueEmail('enum-known');
    const { error } = await anonClient({ url: stack.url, anonKey: stack.keys.anonKey }).auth.signUp({ email: existing, password: 'heslo12345' });
    expect(error).toBeNull();
    const s = await sample((kind) =>
      timedPost(`${stack.url}/auth/v1/recover`, stack.keys.anonKey, { email: kind === 'existing' ? existing : uniqueEmail('enum-unknown') }),
    );
    expectIndistinguishable('recover', s);
  }, 120_000);

  it('registration (auth-link) answers an existing and a new address alike, in the same time', async () => {
    const existing = uniqueEmail('enum-member');
    const { error } = await anonClient({ url: stack.url, anonKey: stack.keys.anonKey }).auth.signUp({ email: existing, password: 'heslo12345' });
    expect(error).toBeNull();
    const s = await sample((kind) =>
      timedPost(`${stack.url}/functions/v1/auth-link`, stack.keys.anonKey, { email: kind === 'existing' ? existing : uniqueEmail('enum-new') }),
    );
    expectIndistinguishable('auth-link', s);
  }, 240_000);
});

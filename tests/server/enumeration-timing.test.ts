// Account enumeration through registration (the auth-link function the register screen calls) and
// forgot-password (POST /auth/v1/recover): an address with an account and one without get the same
// status and the same body, and the response times are within noise. Timing criterion (robust to the
// outliers of a shared 2-core machine): interleaved samples, |median(existing) − median(new)| <
// max(FLOOR_MS, 3 × pooled MAD), where the pooled MAD is the median absolute deviation of every
// sample from its own group's median.
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
  return { status: res.status, body: text, ms: performance.now() - t0 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function timingVerdict(a: number[], b: number[]) {
  const ma = median(a);
  const mb = median(b);
  const pooledMad = median([...a.map((x) => Math.abs(x - ma)), ...b.map((x) => Math.abs(x - mb))]);
  const allowed = Math.max(FLOOR_MS, 3 * pooledMad);
  return { medianExisting: ma, medianNew: mb, diff: Math.abs(ma - mb), pooledMad, allowed };
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
  const statuses = new Set([...s.existing, ...s.new].map((r) => r.status));
  const bodies = new Set([...s.existing, ...s.new].map((r) => r.body));
  expect([...statuses]).toHaveLength(1);
  expect([...bodies]).toHaveLength(1);
  expect([...statuses][0]).toBe(200);
  const v = timingVerdict(
    s.existing.map((r) => r.ms),
    s.new.map((r) => r.ms),
  );
  console.log(
    `${name}: median existing ${v.medianExisting.toFixed(1)} ms, new ${v.medianNew.toFixed(1)} ms, ` +
      `|diff| ${v.diff.toFixed(1)} ms, pooled MAD ${v.pooledMad.toFixed(1)} ms, allowed ${v.allowed.toFixed(1)} ms (n=${SAMPLES} each)`,
  );
  expect(v.diff).toBeLessThan(v.allowed);
}

describe('account enumeration', () => {
  it('the criterion flags a real difference and passes noise (self-check)', () => {
    const noise = (base: number) => Array.from({ length: SAMPLES }, (_, i) => base + ((i * 7919) % 13) - 6);
    expect(timingVerdict(noise(100), noise(100)).diff).toBeLessThan(timingVerdict(noise(100), noise(100)).allowed);
    const slow = timingVerdict(noise(100), noise(125));
    expect(slow.diff).toBeGreaterThanOrEqual(slow.allowed);
  });

  it('forgot-password answers an existing and an unknown address alike, in the same time', async () => {
    const existing = uniqueEmail('enum-known');
    const { error } = await anonClient({ url: stack.url, anonKey: stack.keys.anonKey }).auth.signUp({ email: existing, password: 'heslo12345' });
    expect(error).toBeNull();
    const s = await sample((kind) =>
      timedPost(`${stack.url}/auth/v1/recover`, stack.keys.anonKey, { email: kind === 'existing' ? existing : uniqueEmail('enum-unknown') }),
    );
    expectIndistinguishable('recover', s);
  });

  it('registration (auth-link) answers an existing and a new address alike, in the same time', async () => {
    const existing = uniqueEmail('enum-member');
    const { error } = await anonClient({ url: stack.url, anonKey: stack.keys.anonKey }).auth.signUp({ email: existing, password: 'heslo12345' });
    expect(error).toBeNull();
    const s = await sample((kind) =>
      timedPost(`${stack.url}/functions/v1/auth-link`, stack.keys.anonKey, { email: kind === 'existing' ? existing : uniqueEmail('enum-new') }),
    );
    expectIndistinguishable('auth-link', s);
  });
});

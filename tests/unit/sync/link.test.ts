// The kit's link model (sync/testing/link.ts) against a local HTTP server: a cut mid-body really loses
// the rest, a caller's abort ends the transfer, bytes are counted each way. Its pace is exercised by
// tests/sync/slow-link.test.ts, whose floor comes from these counts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultyNet } from '../../../sync/testing/faulty-net.ts';
import { rng } from '../../../sync/testing/rng.ts';

const BODY = 'x'.repeat(200_000);
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(BODY);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function read(res: Response): Promise<{ bytes: number; error: unknown }> {
  const reader = res.body!.getReader();
  let bytes = 0;
  for (;;) {
    try {
      const r = await reader.read();
      if (r.done) return { bytes, error: null };
      bytes += r.value.byteLength;
    } catch (error) {
      return { bytes, error };
    }
  }
}

describe('FaultyNet link model', () => {
  it('delivers the whole body and counts it each way', async () => {
    const net = new FaultyNet(rng(1));
    net.link = { bytesPerSecond: 2_000_000, rttMs: 10 };
    const res = await net.fetch(url, { method: 'POST', body: 'abc' });
    expect(await read(res)).toEqual({ bytes: BODY.length, error: null });
    expect(net.line.stats).toMatchObject({ bytesDown: BODY.length, bytesUp: 3, replies: 1, cutReplies: 0 });
  });

  it('a cut after n bytes loses the rest of the body: the reader sees exactly n bytes, then "terminated"', async () => {
    const net = new FaultyNet(rng(1));
    net.link = { bytesPerSecond: 2_000_000, rttMs: 10 };
    const res = await net.fetch(url);
    net.line.cutAfterBytes(50_000);
    const r = await read(res);
    expect(r.bytes).toBe(50_000);
    expect(r.error).toBeInstanceOf(TypeError);
    expect(String(r.error)).toContain('terminated');
    expect(net.line.stats.cutReplies).toBe(1);
    // The link is up again: the next request gets its whole body.
    expect((await read(await net.fetch(url))).bytes).toBe(BODY.length);
  });

  it('the caller’s abort ends the transfer where it stands', async () => {
    const net = new FaultyNet(rng(1));
    net.link = { bytesPerSecond: 100_000, rttMs: 10 };
    const ctl = new AbortController();
    const res = await net.fetch(url, { signal: ctl.signal });
    const reading = read(res);
    ctl.abort();
    const r = await reading;
    expect(r.bytes).toBeLessThan(BODY.length);
    expect((r.error as Error).name).toBe('AbortError');
  });
});

// src/lib/timeout-fetch.ts, the app's answer to the chaos run's black-holed requests: a request that
// is never answered fails after the deadline; a caller's own abort still works; answers pass through.
import { describe, expect, it } from 'vitest';
import { timeoutFetch } from '../../src/lib/timeout-fetch.ts';

/** A fetch that never answers unless aborted (a black hole). */
const blackHole: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
  });

describe('timeoutFetch', () => {
  it('fails a request that is never answered after the deadline', async () => {
    const started = Date.now();
    await expect(timeoutFetch(150, blackHole)('http://x/rest/v1/rpc/send_message')).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("keeps the caller's abort signal working", async () => {
    const ctl = new AbortController();
    const p = timeoutFetch(60_000, blackHole)('http://x/', { signal: ctl.signal });
    ctl.abort(new Error('caller gave up'));
    await expect(p).rejects.toThrow('caller gave up');
  });

  it('passes an answer through untouched', async () => {
    const ok: typeof fetch = () => Promise.resolve(new Response('{"a":1}', { status: 201 }));
    const res = await timeoutFetch(1000, ok)('http://x/');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ a: 1 });
  });
});

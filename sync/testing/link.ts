// A slow phone link for FaultyNet (issue 35): bandwidth each way, a round trip, and cuts. The reply's
// body is released to the reader at the link's rate as it streams, so a cut in the middle of a body
// really loses the rest of it (the reader sees `TypeError: terminated`, as undici's fetch does when a
// connection drops), and a caller's abort signal ends the transfer where it stands.
//
// Model: a request waits half the round trip, then its body occupies the uplink; the server answers
// at machine speed; the reply's headers come half a round trip later and its body occupies the
// downlink slice by slice. One downlink and one uplink per device: concurrent replies share it.

export interface LinkModel {
  /** Bytes per second, each way (1.6 Mbps = 200_000). */
  bytesPerSecond: number;
  /** Round-trip time in milliseconds. */
  rttMs: number;
}

/** Replies without a body by their status (the Response constructor refuses a body for them). */
const NULL_BODY = new Set([101, 204, 205, 304]);
/** A run of slices this close to each other is one continuous transfer (timer lateness is not idle link). */
const CONTINUOUS_MS = 25;

function aborted(signal: AbortSignal | null | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

function sleepUntil(at: number, signal: AbortSignal | null | undefined): Promise<void> {
  const ms = at - performance.now();
  if (signal?.aborted) return Promise.reject(aborted(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function byteLength(body: RequestInit['body']): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return 0;
}

class Direction {
  private freeAt = 0;
  /** Reserves the link for `bytes` and resolves when they have passed. */
  occupy(bytes: number, bytesPerSecond: number, signal: AbortSignal | null | undefined): Promise<void> {
    const now = performance.now();
    const start = now - this.freeAt <= CONTINUOUS_MS ? this.freeAt : now;
    this.freeAt = start + (bytes * 1000) / bytesPerSecond;
    return sleepUntil(this.freeAt, signal);
  }
}

export class LinkEmulation {
  model: LinkModel | null = null;
  readonly stats = { bytesDown: 0, bytesUp: 0, replies: 0, cutReplies: 0 };
  private readonly down = new Direction();
  private readonly up = new Direction();
  /** Every reply body still streaming: failing one ends it as a dropped connection does. */
  private readonly inFlight = new Set<(err: Error) => void>();
  /** Bytes the downlink still carries before it drops (null: no cut planned). */
  private cutBudget: number | null = null;

  /** Drops the connection now: every reply still streaming fails, the rest of its body is lost. */
  cut(): void {
    this.cutBudget = null;
    const err = new TypeError('terminated (link cut)');
    for (const fail of [...this.inFlight]) fail(err);
  }

  /** Drops the connection once `bytes` more reply bytes have passed (mid-body if one is streaming). */
  cutAfterBytes(bytes: number): void {
    this.cutBudget = Math.max(0, bytes);
  }

  /** Drops the connection after `ms`; returns a cancel. */
  cutAfterMs(ms: number): () => void {
    const timer = setTimeout(() => this.cut(), ms);
    return () => clearTimeout(timer);
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const model = this.model;
    if (!model) return fetch(input, init);
    const signal = init?.signal;
    await sleepUntil(performance.now() + model.rttMs / 2, signal);
    const sent = byteLength(init?.body);
    this.stats.bytesUp += sent;
    await this.up.occupy(sent, model.bytesPerSecond, signal);
    const res = await fetch(input, init);
    await sleepUntil(performance.now() + model.rttMs / 2, signal);
    this.stats.replies++;
    if (!res.body || NULL_BODY.has(res.status)) return res;
    return new Response(this.throttle(res.body, model, signal), { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  private throttle(body: ReadableStream<Uint8Array>, model: LinkModel, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    // About 20 ms of the link per slice: fine enough for a cut to land mid-body.
    const sliceBytes = Math.max(512, Math.floor(model.bytesPerSecond / 50));
    let pending: Uint8Array = new Uint8Array(0);
    let dead = false;
    let fail: (err: Error) => void = () => undefined;
    const onAbort = () => fail(aborted(signal));
    const finish = () => {
      this.inFlight.delete(fail);
      signal?.removeEventListener('abort', onAbort);
    };
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          fail = (err) => {
            if (dead) return;
            dead = true;
            finish();
            if (!(err instanceof DOMException)) this.stats.cutReplies++;
            controller.error(err);
            reader.cancel(err).catch(() => undefined);
          };
          this.inFlight.add(fail);
          if (signal?.aborted) onAbort();
          else signal?.addEventListener('abort', onAbort, { once: true });
        },
        pull: async (controller) => {
          if (dead) return;
          if (pending.length === 0) {
            const r = await reader.read().catch((err: unknown) => {
              fail(err instanceof Error ? err : new TypeError(String(err)));
              return null;
            });
            if (!r || dead) return;
            if (r.done) {
              dead = true;
              finish();
              controller.close();
              return;
            }
            pending = r.value;
          }
          let n = Math.min(sliceBytes, pending.length);
          const cutting = this.cutBudget !== null && this.cutBudget <= n;
          if (cutting) n = this.cutBudget!;
          try {
            await this.down.occupy(n, model.bytesPerSecond, signal);
          } catch (err) {
            fail(err instanceof Error ? err : aborted(signal));
            return;
          }
          if (dead) return;
          if (n > 0) controller.enqueue(pending.slice(0, n));
          pending = pending.subarray(n);
          this.stats.bytesDown += n;
          if (this.cutBudget !== null) this.cutBudget -= n;
          if (cutting) this.cut();
        },
        cancel: (reason) => {
          dead = true;
          finish();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }
}

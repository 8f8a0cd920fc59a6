// R5.9: a request whose reply is watched byte by byte: it is aborted when no byte arrived for the
// stall time (the server or the link went silent) or at its deadline (derived by the caller from the
// transfer it expects), and the caller is told of every chunk as it arrives (to measure the link).
// A fixed timeout for a reply of unknown size would cut a large page on a slow link for ever (issue 35).

export interface TransferLimits {
  /** Abort when no byte of the reply arrived for this long (counted from the request's start too). */
  stallMs: number;
  /** Abort after this long, whatever arrives. */
  deadlineMs: number;
  /** Told of every chunk of the reply's body, as it arrives. */
  onBytes?: (bytes: number) => void;
}

export class TransferAbort extends Error {
  constructor(message: string) {
    super(message);
    // postgrest-js passes an AbortError through as a failed request (status 0): transient (R9.4).
    this.name = 'AbortError';
  }
}

export interface Meter {
  readonly signal: AbortSignal;
  /** Wraps a fetch so its reply body is counted and keeps the stall timer alive. */
  wrap(inner: typeof fetch): typeof fetch;
  dispose(): void;
}

/** A timer that, like AbortSignal.timeout's, does not keep Node alive (R9.4: `stop()` leaves nothing behind). */
function timer(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
  const t = setTimeout(fn, ms);
  (t as { unref?: () => void }).unref?.();
  return t;
}

export function meterTransfer(limits: TransferLimits): Meter {
  const controller = new AbortController();
  let stall: ReturnType<typeof setTimeout> | null = null;
  const armStall = () => {
    if (stall !== null) clearTimeout(stall);
    stall = timer(() => controller.abort(new TransferAbort(`no byte for ${limits.stallMs} ms`)), limits.stallMs);
  };
  const deadline = timer(() => controller.abort(new TransferAbort(`transfer took over ${Math.round(limits.deadlineMs)} ms`)), limits.deadlineMs);
  armStall();
  const dispose = () => {
    if (stall !== null) clearTimeout(stall);
    stall = null;
    clearTimeout(deadline);
  };
  const counted = (body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> =>
    body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          armStall();
          limits.onBytes?.(chunk.byteLength);
          out.enqueue(chunk);
        },
        flush: dispose,
      }),
    );
  return {
    signal: controller.signal,
    wrap: (inner) => async (input, init) => {
      const res = await inner(input, init);
      armStall();
      if (!res.body) return res;
      return new Response(counted(res.body), { status: res.status, statusText: res.statusText, headers: res.headers });
    },
    dispose,
  };
}

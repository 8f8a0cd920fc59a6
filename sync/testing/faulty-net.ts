// A fault-injecting network for one simulated device: a fetch for supabase-js (`global.fetch`) and a
// WebSocket class for its realtime client (over the `ws` package, which Node 20 needs: it has no
// global WebSocket). In 'faulty' mode requests are dropped before or after the server saw them,
// delayed (so concurrent ones reorder), duplicated and answered 503 by a "proxy" that never forwarded
// them; realtime change events are dropped, delayed, duplicated and reordered; sockets can be cut or
// closed. 'offline' fails everything at once. `blackHole`, `loseReply` and `onRequest` act in every mode, and so
// does the link model (`link`: bandwidth and round trip, link.ts) with its cuts.
import { WebSocket } from 'ws';
import { LinkEmulation, type LinkModel } from './link.ts';
import type { Rng } from './rng.ts';

export type NetMode = 'perfect' | 'faulty' | 'offline';

export interface FaultRates {
  dropRequest: number;
  dropResponse: number;
  duplicate: number;
  maxDelayMs: number;
  dropEvent: number;
  duplicateEvent: number;
  maxEventDelayMs: number;
  /** A 503 from a proxy in front of the server; the server never saw the request. */
  serverError?: number;
}

export const DEFAULT_FAULTS: FaultRates = {
  dropRequest: 0.15,
  dropResponse: 0.15,
  duplicate: 0.15,
  maxDelayMs: 40,
  dropEvent: 0.2,
  duplicateEvent: 0.2,
  maxEventDelayMs: 60,
  serverError: 0.05,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type MessageHandler = ((ev: WebSocket.MessageEvent) => void) | null;

export class FaultyNet {
  mode: NetMode = 'perfect';
  readonly sockets = new Set<WebSocket>();
  stats = { requests: 0, droppedRequests: 0, droppedResponses: 0, duplicated: 0, droppedEvents: 0, duplicatedEvents: 0, cuts: 0, blackHoled: 0, serverErrors: 0 };
  /**
   * The link the requests travel over (null: as fast as the machine). Kept across `mode` changes, so a
   * device taken offline and back is still on the same slow link. Its cuts and byte counts: `line`.
   */
  readonly line = new LinkEmulation();
  get link(): LinkModel | null {
    return this.line.model;
  }
  set link(model: LinkModel | null) {
    this.line.model = model;
  }

  constructor(
    private readonly rand: Rng,
    private readonly rates: FaultRates = DEFAULT_FAULTS,
  ) {}

  /**
   * Black-holes replies: a request it picks reaches the server, but its answer never arrives; the
   * caller only gets out through its own abort signal (R9.4). Returns true to black-hole.
   */
  blackHole: ((url: string, body: string) => boolean) | null = null;

  /**
   * Loses replies after the server handled them: a request it picks reaches the server and is
   * answered, the answer is read off the wire and dropped, and the caller sees a network failure at
   * once (a phone whose radio dropped as the reply came back). Unlike `blackHole`, nothing hangs.
   * Returns true to lose the reply.
   */
  loseReply: ((url: string, body: string) => boolean) | null = null;

  /** Told of every request this network lets out (not while offline): to count or log them. */
  onRequest: ((url: string, body: string) => void) | null = null;

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    this.stats.requests++;
    if (this.mode === 'offline') throw new TypeError('fetch failed (offline)');
    const url = input instanceof Request ? input.url : String(input);
    this.onRequest?.(url, typeof init?.body === 'string' ? init.body : '');
    if (this.blackHole?.(url, typeof init?.body === 'string' ? init.body : '')) {
      this.stats.blackHoled++;
      const { signal, ...rest } = init ?? {};
      await fetch(input, rest).then((x) => x.arrayBuffer()).catch(() => undefined);
      return new Promise<Response>((_, reject) => {
        if (signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    if (this.loseReply?.(url, typeof init?.body === 'string' ? init.body : '')) {
      await fetch(input, init).then((x) => x.arrayBuffer());
      this.stats.droppedResponses++;
      throw new TypeError('fetch failed (reply lost)');
    }
    if (this.mode === 'perfect') return this.line.fetch(input, init);
    const r = this.rand;
    await sleep(r.int(this.rates.maxDelayMs));
    if (r.chance(this.rates.dropRequest)) {
      this.stats.droppedRequests++;
      throw new TypeError('fetch failed (dropped request)');
    }
    if (r.chance(this.rates.serverError ?? 0)) {
      this.stats.serverErrors++;
      return new Response(JSON.stringify({ message: 'Service Unavailable (injected)' }), { status: 503, headers: { 'content-type': 'application/json' } });
    }
    const dropAnswer = r.chance(this.rates.dropResponse);
    if (r.chance(this.rates.duplicate)) {
      this.stats.duplicated++;
      const later = r.int(this.rates.maxDelayMs);
      void sleep(later).then(() => fetch(input, init).then((x) => x.arrayBuffer()).catch(() => undefined));
    }
    const res = await this.line.fetch(input, init);
    if (dropAnswer) {
      await res.arrayBuffer().catch(() => undefined);
      this.stats.droppedResponses++;
      throw new TypeError('fetch failed (response lost)');
    }
    return res;
  };

  /** Closes every socket of this device abruptly (no close frame, as when the radio drops). */
  cutSockets(): void {
    for (const s of this.sockets) {
      this.stats.cuts++;
      s.terminate();
    }
  }

  /** Closes every socket of this device cleanly with `code` (as a server or proxy going away does). */
  closeSockets(code = 1001): void {
    for (const s of this.sockets) {
      this.stats.cuts++;
      s.close(code);
    }
  }

  /** Delivers a socket frame, perturbing postgres_changes events in faulty mode. */
  private deliver(handler: (ev: WebSocket.MessageEvent) => void, ev: WebSocket.MessageEvent): void {
    if (this.mode !== 'faulty' || typeof ev.data !== 'string' || !ev.data.includes('"postgres_changes"') || !ev.data.includes('"data"')) {
      handler(ev);
      return;
    }
    const r = this.rand;
    if (r.chance(this.rates.dropEvent)) {
      this.stats.droppedEvents++;
      return;
    }
    const copies = r.chance(this.rates.duplicateEvent) ? 2 : 1;
    if (copies === 2) this.stats.duplicatedEvents++;
    for (let i = 0; i < copies; i++) setTimeout(() => handler(ev), r.int(this.rates.maxEventDelayMs));
  }

  /** A WebSocket class for supabase-js's `realtime.transport` option that goes through this network. */
  socketClass(): new (address: string | URL, protocols?: string | string[]) => WebSocket {
    const sockets = this.sockets;
    const deliver = (fn: (ev: WebSocket.MessageEvent) => void, ev: WebSocket.MessageEvent) => this.deliver(fn, ev);
    const offline = () => this.mode === 'offline';
    const proto = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
    return class FaultySocket extends WebSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols);
        sockets.add(this);
        this.on('close', () => sockets.delete(this));
        this.on('open', () => {
          if (offline()) this.terminate();
        });
        let current: MessageHandler = null;
        Object.defineProperty(this, 'onmessage', {
          configurable: true,
          get: () => current,
          set: (fn: MessageHandler) => {
            current = fn;
            proto?.set?.call(this, fn ? (ev: WebSocket.MessageEvent) => deliver(fn, ev) : null);
          },
        });
      }
    };
  }
}

/** The faults several networks injected, summed (a fuzz seed's report). */
export function sumStats(nets: readonly FaultyNet[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of nets) for (const [k, v] of Object.entries(n.stats)) out[k] = (out[k] ?? 0) + v;
  return out;
}

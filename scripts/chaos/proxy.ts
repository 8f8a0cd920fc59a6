// The fault-injecting proxy between the browsers and the stack. Browsers only ever talk to this
// origin (the stack's PUBLIC_URL points here). With faults on, each API request is dropped (socket
// destroyed before forwarding, a 503, or destroyed after the server answered), else delayed; every
// websocket is cut after 2–8 s. With faults off it is a plain pass-through, so healing is observable.
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { decideFault, isExempt, wsCutDelay, type FaultConfig, type FaultKind } from './faults.ts';
import { substream } from './prng.ts';

export interface ProxyStats {
  requests: number;
  exempt: number;
  faults: Record<FaultKind, number>;
  upstreamDown: number;
  wsOpened: number;
  wsCut: number;
  /** Method and path of every black-holed request (for the report). */
  held: string[];
}

export interface FaultProxy {
  url: string;
  port: number;
  stats: ProxyStats;
  setFaults(on: boolean): void;
  close(): Promise<void>;
}

interface Tunnel {
  client: Socket;
  upstream: Socket;
  timer: NodeJS.Timeout | undefined;
}

export async function startFaultProxy(opts: { upstreamPort: number; seed: number; faults: FaultConfig }): Promise<FaultProxy> {
  const rng = substream(opts.seed, 'proxy');
  const wsRng = substream(opts.seed, 'proxy-ws');
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let on = false;
  const stats: ProxyStats = {
    requests: 0,
    exempt: 0,
    faults: { pass: 0, 'drop-before': 0, 'reject-503': 0, 'drop-after': 0, hang: 0 },
    upstreamDown: 0,
    wsOpened: 0,
    wsCut: 0,
    held: [],
  };
  const tunnels = new Set<Tunnel>();
  const held = new Set<Socket>();

  const cut = (t: Tunnel) => {
    if (t.timer) clearTimeout(t.timer);
    t.timer = undefined;
    if (!tunnels.delete(t)) return;
    stats.wsCut++;
    t.client.destroy();
    t.upstream.destroy();
  };
  const arm = (t: Tunnel) => {
    if (t.timer) clearTimeout(t.timer);
    t.timer = on ? setTimeout(() => cut(t), wsCutDelay(wsRng, opts.faults)) : undefined;
  };

  const forward = (req: IncomingMessage, res: ServerResponse, dropAfter: boolean) => {
    const up = request(
      { host: '127.0.0.1', port: opts.upstreamPort, method: req.method, path: req.url, headers: req.headers, agent },
      (ures) => {
        if (dropAfter) {
          // The server did the work; the client never hears the answer.
          ures.resume();
          ures.on('close', () => req.socket.destroy());
          return;
        }
        res.writeHead(ures.statusCode ?? 502, ures.headers);
        ures.pipe(res);
        // A stack killed mid-answer resets the connection: so must we, or the browser waits forever.
        ures.on('error', () => res.destroy());
        ures.on('close', () => {
          if (!ures.complete) res.destroy();
        });
      },
    );
    up.on('error', () => {
      stats.upstreamDown++;
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end('{"message":"upstream unavailable"}');
      } else res.destroy();
    });
    req.pipe(up);
  };

  const server = createServer((req, res) => {
    stats.requests++;
    const path = (req.url ?? '/').split('?')[0]!;
    const d = on ? decideFault(rng, req.method ?? 'GET', path, opts.faults) : { kind: 'pass' as const, delayMs: 0 };
    if (on && isExempt(req.method ?? 'GET', path)) stats.exempt++;
    stats.faults[d.kind]++;
    const act = () => {
      if (d.kind === 'hang') {
        held.add(req.socket); // never answered; destroyed only when the proxy closes
        stats.held.push(`${req.method} ${path}`);
        return;
      }
      if (d.kind === 'drop-before') {
        req.socket.destroy();
        return;
      }
      if (d.kind === 'reject-503') {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"message":"chaos: service unavailable"}');
        return;
      }
      forward(req, res, d.kind === 'drop-after');
    };
    if (d.delayMs > 0) setTimeout(act, d.delayMs);
    else act();
  });

  server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const upstream = connect(opts.upstreamPort, '127.0.0.1');
    const t: Tunnel = { client, upstream, timer: undefined };
    tunnels.add(t);
    stats.wsOpened++;
    upstream.on('connect', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const end = () => {
      if (t.timer) clearTimeout(t.timer);
      tunnels.delete(t);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', end);
    upstream.on('close', end);
    client.on('error', end);
    client.on('close', end);
    arm(t);
  });

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats,
    setFaults(value: boolean) {
      on = value;
      for (const t of tunnels) arm(t);
    },
    async close() {
      for (const t of [...tunnels]) cut(t);
      for (const sock of held) sock.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
    },
  };
}

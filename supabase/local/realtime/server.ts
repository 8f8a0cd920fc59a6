// /realtime/v1/websocket: Supabase Realtime's Phoenix protocol (vsn 2.0.0, and 1.0.0) for
// postgres_changes, fed by the NOTIFY triggers of supabase/local/sql/realtime.sql, and for broadcast,
// from clients and from the database (realtime.send: sql/realtime-messages.sql, db-broadcast.ts).
// Invariants: an upgrade without the anon or service_role key, or with an unknown vsn, is refused
// with an HTTP error before any WebSocket exists; a socket silent for idleTimeoutMs (no heartbeat or
// any other frame) is closed; a frame over 1 MB closes its socket (ws maxPayload, close code 1009);
// close() ends the listener and every socket; a client address holds at most maxSocketsPerAddress
// sockets (limits.ts; the address is the socket peer, or the first X-Forwarded-For hop only when the
// operator trusts a proxy), a further upgrade is answered 429.
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { resolveApiKey } from '../gateway/api-key.ts';
import { Catalog } from './catalog.ts';
import { createCheckPool, fillCheckPool } from './check-pool.ts';
import { ChannelRegistry } from './channel-registry.ts';
import { Connection, POSTGRES_LOST, type ConnectionContext } from './connection.ts';
import { DbBroadcaster, parseBroadcastNotice } from './db-broadcast.ts';
import type { RealtimeDeps } from './deps.ts';
import { Dispatcher } from './dispatcher.ts';
import { FloodGuard } from './flood-guard.ts';
import { DEFAULT_LIMITS, TOO_MANY_CONNECTIONS, type RealtimeStats } from './limits.ts';
import { Listener } from './listener.ts';
import { SUPPORTED_VSN, type Vsn } from './protocol.ts';
import { RlsChecker } from './rls-check.ts';

export interface RealtimeServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
  /** PostgreSQL is back: re-LISTEN now rather than after the backoff. */
  reconnectNow(): void;
  /** The flood limits at work (issue 36 N4). */
  stats(): RealtimeStats;
}

const MAX_FRAME_BYTES = 1024 * 1024;

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The client's address: the first X-Forwarded-For hop only behind a proxy the operator trusts. */
function clientAddress(req: IncomingMessage, trustForwardedFor: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim() : '';
  if (trustForwardedFor && first) return first;
  return req.socket.remoteAddress ?? 'unknown';
}

export async function createRealtimeServer(deps: RealtimeDeps): Promise<RealtimeServer> {
  const { log } = deps;
  // Hosted Realtime keeps Phoenix's websocket `timeout` (supabase/realtime lib/realtime_web/endpoint.ex
  // sets none; phoenix lib/phoenix/endpoint.ex: "the timeout for keeping websocket connections open
  // after it last received data, defaults to 60_000ms"): a socket that opens and sends nothing, not
  // even a heartbeat, is closed after 60 s, one that heartbeats without joining stays (issue 36 N3).
  const idleTimeoutMs = deps.idleTimeoutMs ?? 60_000;
  const registry = new ChannelRegistry();
  const catalog = new Catalog(deps.pool);
  const checkPool = createCheckPool(deps.databaseUrl, log);
  const filled = fillCheckPool(checkPool, log);
  const rls = new RlsChecker(deps.pool, checkPool);
  const dispatcher = new Dispatcher(registry, catalog, rls, log, deps.onDelivery);
  const connections = new Set<Connection>();
  const guard = new FloodGuard({ ...DEFAULT_LIMITS, ...deps.limits });
  let nextId = 0;
  /** The LISTEN connection is up (listener.ts); until its first connection, as after a loss. */
  let postgresUp = false;
  const ctx: ConnectionContext = {
    registry,
    catalog,
    jwtKeys: deps.keys,
    rls,
    nextBindingId: () => ++nextId,
    log,
    guard,
    postgresUp: () => postgresUp,
  };
  const tellAll = (status: 'ok' | 'error', message: string) =>
    dispatcher.enqueue(() => {
      for (const c of connections) c.notifyPostgres(status, message);
    });

  const dbBroadcaster = new DbBroadcaster(registry, deps.pool, log);
  // realtime.messages' daily partitions, as hosted Realtime's janitor keeps them (sql/realtime-messages.sql).
  const maintain = () =>
    void deps.pool
      .query('select local_stack.realtime_messages_maintain()')
      .catch((err: Error) => log(`realtime: realtime.messages maintenance failed: ${err.message}`));
  maintain();
  const janitor = setInterval(maintain, 60 * 60 * 1000);
  janitor.unref();
  const listener = new Listener({
    databaseUrl: deps.databaseUrl,
    ...(deps.listenerAppName ? { appName: deps.listenerAppName } : {}),
    log,
    onNotification: (payload) => {
      const notice = parseBroadcastNotice(payload);
      if (notice) dbBroadcaster.handle(notice);
      else dispatcher.handle(payload);
    },
    onUp: (reconnected) => {
      postgresUp = true;
      if (!reconnected) return;
      catalog.clear(); // the database may have been replaced or migrated meanwhile
      void fillCheckPool(checkPool, log); // fresh, warmed connections before the next change
      tellAll('ok', 'Subscribed to PostgreSQL');
    },
    onDown: () => {
      postgresUp = false;
      tellAll('error', POSTGRES_LOST);
    },
  });
  await listener.start();

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  let closing = false;

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const c of connections) if (now - c.lastSeen > idleTimeoutMs) c.close(1000, 'heartbeat timeout');
    },
    Math.max(50, Math.min(5_000, Math.floor(idleTimeoutMs / 4))),
  );
  sweep.unref();

  return {
    handleUpgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname.replace(/\/+$/, '') !== '/realtime/v1/websocket')
        return refuse(socket, 404, 'Not found');
      const header = req.headers.apikey;
      const apikey = url.searchParams.get('apikey') ?? (typeof header === 'string' ? header : null);
      // The gateway's key rules (gateway/api-key.ts): a new key stands for its role's token here.
      const decision = resolveApiKey(deps.keys, apikey, undefined, req.headers['user-agent']);
      if (!decision.ok) return refuse(socket, 401, decision.message);
      const roleToken = decision.authorization.slice('Bearer '.length);
      const vsn = url.searchParams.get('vsn') ?? '1.0.0';
      if (!SUPPORTED_VSN.includes(vsn as Vsn))
        return refuse(socket, 400, `Unsupported protocol version ${vsn}; use 1.0.0 or 2.0.0`);
      if (closing) return refuse(socket, 503, 'Realtime is shutting down');
      const address = clientAddress(req, deps.trustForwardedFor ?? false);
      if (!guard.admit(address)) return refuse(socket, 429, TOO_MANY_CONNECTIONS);
      let released = false;
      const release = () => {
        if (!released) guard.release(address);
        released = true;
      };
      socket.once('close', release);
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn = new Connection(ws, vsn as Vsn, roleToken, ctx);
        connections.add(conn);
        ws.on('close', () => {
          connections.delete(conn);
          release();
        });
      });
    },

    reconnectNow() {
      listener.retryNow();
    },

    stats() {
      let buffered = 0;
      for (const c of connections) buffered += c.bufferedAmount;
      return guard.stats(connections.size, buffered);
    },

    async close() {
      closing = true;
      clearInterval(sweep);
      clearInterval(janitor);
      guard.close();
      await listener.stop();
      for (const c of connections) c.close(1001, 'server shutting down');
      const deadline = Date.now() + 1_000;
      while (connections.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const c of connections) {
        c.terminate();
        c.dispose();
      }
      connections.clear();
      await new Promise<void>((r) => wss.close(() => r()));
      await filled;
      await checkPool.end().catch(() => undefined);
    },
  };
}

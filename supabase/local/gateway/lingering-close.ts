// Lingering close: a refusal sent before its request's body has all arrived (a 413 from the declared
// length, storage's 400 for a missing one, any answer that never reads the body) closes the connection
// only after what is still arriving has been read and thrown away, as nginx in front of hosted
// Supabase does (`lingering_close` on by default: it reads on for at most `lingering_time` 30 s and
// stops after `lingering_timeout` 5 s without data; ngx_http_core_module). Closing at once is not the
// same: a socket closed with unread data makes the kernel answer RST, and a client still sending its
// body then loses the answer it had not read yet. Seen as `fetch failed` (EPIPE) instead of storage's
// 413 and 400 on a loaded machine (session 46; tests/server/lingering-close.test.ts).
//
// Such an answer carries `Connection: close` (a client must never send its next request into the
// unread body), and for that Node's server calls `socket.destroySoon()` as soon as the answer is
// written (resOnFinish in lib/_http_server.js, after it has set the body to be dumped). This replaces
// that call, for a request whose body is still arriving, by a half-close: the answer and a FIN go out,
// the body is read and dropped within the bounds, then the socket is destroyed. @hono/node-server's own
// drain of an unread body (500 ms, then the same destroySoon: DRAIN_TIMEOUT_MS in its dist/index.mjs)
// is turned off where this runs (`autoCleanupIncoming: false`).
//
// An answer that keeps the connection open while its body is still arriving (a 401 for a missing key
// to a POST) has the rest read and dropped before the next request; nginx bounds that reading the same
// way (ngx_http_finalize_connection in src/http/ngx_http_request.c: a request with `discard_body` gets
// `lingering_timeout` per read and `lingering_time` in all, then the connection is closed), so the
// stack does too (`boundDiscard`). Before, only Node's 5 s keep-alive timeout bounded the silence, and
// nothing the whole.
//
// Invariant: a request whose body had all arrived when its answer finished closes exactly as before.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Lingering {
  /** The most time spent reading a refused body after its answer (nginx lingering_time). */
  timeMs: number;
  /** Reading stops after this long without data (nginx lingering_timeout). */
  idleMs: number;
}

export const NGINX_LINGERING: Lingering = { timeMs: 30_000, idleMs: 5_000 };

const current = Symbol('lingering-close: the request now on this socket');
type Tracked = Socket & { [current]?: IncomingMessage };

/** Call for every request as it arrives. */
export function lingerAfterResponse(req: IncomingMessage, res: ServerResponse, bounds: Lingering = NGINX_LINGERING): void {
  const socket = req.socket as Tracked;
  if (!(current in socket)) {
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const pending = socket[current];
      if (!pending || pending.complete || pending.destroyed || socket.destroyed) return destroySoon();
      linger(pending, socket, bounds);
    };
  }
  socket[current] = req;
  // Node's own 'finish' listener (resOnFinish) was added before the request was handed over, so by now
  // it has set the body to be dumped, or called destroySoon for an answer that closes.
  res.once('finish', () => {
    if (res.shouldKeepAlive && !req.complete && !req.destroyed && !socket.destroyed) boundDiscard(req, socket, bounds);
  });
}

/** Keep-alive: the rest of the body is read within the bounds, or the connection is closed. */
function boundDiscard(req: IncomingMessage, socket: Socket, bounds: Lingering): void {
  const stopWatching = watch(req, socket, bounds, () => socket.destroy());
  req.once('end', stopWatching); // all of it read: the connection serves its next request
}

/**
 * Calls `cut` once `req`'s body has been silent for idleMs or arriving for timeMs; returns a stop.
 * Silence is read off the socket's byte count, not 'data' events: a dumped body's bytes are dropped
 * by the parser (parserOnBody in lib/_http_common.js pushes nothing once `_dumped`), so no event says
 * they came. Checked every idleMs / 5, so the idle bound holds within a fifth of itself.
 */
function watch(req: IncomingMessage, socket: Socket, bounds: Lingering, cut: () => void): () => void {
  const started = Date.now();
  let lastBytes = socket.bytesRead;
  let lastData = started;
  // Also off the socket: a keep-alive connection may see many refusals, each adding a 'close' listener.
  const stop = () => {
    clearInterval(check);
    socket.off('close', stop);
  };
  const check = setInterval(() => {
    const now = Date.now();
    if (socket.bytesRead !== lastBytes) {
      lastBytes = socket.bytesRead;
      lastData = now;
    }
    if (now - lastData >= bounds.idleMs || now - started >= bounds.timeMs) {
      stop();
      cut();
    }
  }, Math.max(10, Math.floor(bounds.idleMs / 5)));
  // The answer is finished, so nobody wants the rest of the body. Node dumps it (IncomingMessage._dump:
  // 'data' listeners removed, resumed) only when nothing had begun reading it; a handler that made a Web
  // stream of the request (Readable.toWeb, as @hono/node-server does when the request is looked at)
  // left a paused reader behind, and the body then stopped arriving for good: a keep-alive connection
  // never reached its next request (seen: a 401 for a missing key to a POST). So the same is done here.
  req.removeAllListeners('data');
  req.resume();
  socket.once('close', stop);
  return stop;
}

function linger(req: IncomingMessage, socket: Socket, bounds: Lingering): void {
  socket.end(); // the answer is written: FIN after it, and the socket stays readable
  const cut = () => socket.destroy();
  const stop = watch(req, socket, bounds, cut);
  req.once('end', () => {
    stop();
    cut(); // all of it read: nothing unread is left to turn the close into a reset
  });
}

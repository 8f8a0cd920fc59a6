// How long the gateway waits for a slow client (slow-loris: headers or a body sent a byte at a time).
//
// Hosted Supabase answers through Kong (nginx) behind Cloudflare. supabase/cli's local Kong sets no
// client timeout of its own (apps/cli-go/internal/start/start.go passes only KONG_* buffer, DNS and
// port settings; templates/kong.yml only raises the functions route's upstream read_timeout to 150 s),
// so nginx's defaults apply: `client_header_timeout 60s` (the whole header within 60 s) and
// `client_body_timeout 60s` (at most 60 s between two reads of the body, answered 408). Node's HTTP
// server has the first (`headersTimeout`, 60 s) and a total `requestTimeout` (300 s) but no idle bound
// on a body: a client that sent its headers and then stalls held the connection for 5 minutes. This
// file adds nginx's body bound and sets Node's two explicitly, so the values are the stack's choice
// and not a Node version's.
//
// An idle keep-alive connection: a client faces Cloudflare on hosted, which keeps an idle HTTP/1.1
// connection 400 s ("Connection Keep-Alive HTTP/1.1: 400 s", Cloudflare's Connection limits,
// developers.cloudflare.com/fundamentals/reference/connection-limits). Node's default closes it after
// 5 s, and a client that sends its next request on it just then gets ECONNRESET ('socket hang up'):
// Playwright's request context, whose keep-alive agent has no idle bound of its own, did in stop 61's
// CI run (auth.e2e's mail poll, ~5 s after the test's previous request). So the local stack is not
// stricter than hosted here either: `keepAliveMs`, 400 s.
//
// Invariant: the body bound runs only while a request's body is still arriving; once the body has been
// read (or the request ended) the socket's timeout is given back to Node, so a long answer (an AI
// stream, a download) and Node's own keep-alive timeout are never cut by it.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';

export interface HttpTimeouts {
  /** The request line and headers complete within this (nginx client_header_timeout; Node headersTimeout). */
  headersMs: number;
  /** At most this long between two reads of a request body (nginx client_body_timeout); 0 turns it off. */
  bodyIdleMs: number;
  /** The whole request, body included, within this (Node requestTimeout, its default 300 s). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (Cloudflare's 400 s; Node keepAliveTimeout). */
  keepAliveMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 60_000, bodyIdleMs: 60_000, requestMs: 300_000, keepAliveMs: 400_000 };

/**
 * Node checks headersTimeout and requestTimeout every connectionsCheckingInterval (default 30 s), so a
 * slow client is cut between the bound and the bound + the interval; shorter bounds check sooner.
 */
export function serverTimeouts(t: HttpTimeouts): Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval' | 'keepAliveTimeout'> {
  const shortest = Math.min(t.headersMs, t.requestMs);
  return {
    headersTimeout: t.headersMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(shortest / 4))),
  };
}

const TIMED_OUT = JSON.stringify({ code: 'request_timeout', message: 'The request body stopped arriving' });

/** Cuts a request whose body stops arriving for `ms` with nginx's 408, and closes the connection. */
export function boundBodyIdle(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (ms <= 0 || req.complete) return;
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || Number(length) === 0)) return;
  const socket = req.socket;
  // Node emits 'timeout' on the request only while it is incomplete (socketOnTimeout in _http_server.js).
  const onIdle = () => {
    if (!res.headersSent) {
      res.writeHead(408, { 'content-type': 'application/json', connection: 'close' });
      res.end(TIMED_OUT, () => socket.destroy());
    } else socket.destroy();
    // A client that does not read the 408 either must not keep the socket.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
  req.setTimeout(ms, onIdle);
  const done = () => {
    req.off('timeout', onIdle);
    // Node sets its keep-alive timeout when the answer is finished; before that the socket had none.
    if (!res.writableFinished && !socket.destroyed) socket.setTimeout(0);
  };
  req.once('end', done);
  req.once('close', done);
}

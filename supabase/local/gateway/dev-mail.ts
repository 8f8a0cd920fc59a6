// /_dev/mail: the mails the stack would have sent, for developers and e2e tests on this machine.
// The mailbox holds magic links and sign-in codes for every user, so reading it is signing in as
// anyone (issue 16 item 1, issue 36 N1). Invariants, each checked by tests/server/dev-mail-*.test.ts
// and e2e/security-dev-mail.e2e.ts:
// - it exists only without SMTP and outside production (config.ts devMailMode 'off'); otherwise 404;
// - when HOST or PUBLIC_URL names anything but this machine (mode 'token'), it answers only a request
//   carrying the random token printed in the start banner: a proxy or TCP forwarder in front of the
//   stack (nginx's plain proxy_pass, socat, ssh -L) makes every internet client a loopback peer that
//   sends no forwarding header, so neither the peer nor missing headers may ever be taken as "local";
// - otherwise (mode 'loopback') it answers only a loopback peer, judged by the socket's address (never
//   X-Forwarded-For), and refuses a request a proxy forwarded;
// - it answers only a Host that names this machine or PUBLIC_URL (a DNS-rebinding page has its own);
// - it refuses cross-site and same-site requests from browsers (a foreign Origin, or Sec-Fetch-Site
//   other than same-origin/none), and sends no CORS headers (gateway/app.ts skips CORS for /_dev), so
//   a page on another origin can neither read it nor have it answer.
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type Next } from 'hono';
import { isLoopbackHost, type DevMailMode } from '../config.ts';
import type { Mailer } from '../mailbox.ts';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && /^[0-9a-f.:]+$/i.test(address) && isLoopbackHost(address);
}

/** Host names that can only mean this machine (plus the configured public host). */
function isLocalHostName(hostname: string, publicHost: string): boolean {
  return isLoopbackHost(hostname) || hostname.toLowerCase().replace(/^\[|\]$/g, '') === publicHost.toLowerCase();
}

/** The token a request presents (?token= for a browser tab, X-Dev-Mail-Token for tools) equals ours. */
function tokenMatches(c: Context, token: string): boolean {
  const given = c.req.query('token') ?? c.req.header('x-dev-mail-token');
  if (given === undefined) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(given), digest(token));
}

const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];
const ALLOWED_FETCH_SITES = new Set(['same-origin', 'none']);

function refuse(c: Context, status: 403 | 404, message: string): Response {
  return c.json({ error: status === 404 ? 'not_found' : 'forbidden', message }, status);
}

export interface DevMailOptions {
  mode: DevMailMode;
  /** Required in mode 'token': the random secret the start banner prints. */
  token?: string | undefined;
  publicUrl: () => string;
}

/** Why this request may not read the mailbox, or null when it may. */
function refusal(c: Context, opts: DevMailOptions): string | null {
  if (opts.mode === 'token') {
    if (!opts.token || !tokenMatches(c, opts.token))
      return 'The dev mailbox needs the token printed in the start banner (HOST or PUBLIC_URL is not this machine, so a proxy may be in front).';
  } else {
    let peer: string | undefined;
    try {
      peer = getConnInfo(c).remote.address;
    } catch {
      peer = undefined; // not a Node socket (app.request() in a unit test): not loopback
    }
    if (!isLoopbackAddress(peer)) return 'The dev mailbox answers only requests from this machine.';
    if (PROXY_HEADERS.some((h) => c.req.header(h) !== undefined))
      return 'The dev mailbox does not answer requests forwarded by a proxy.';
  }
  const publicOrigin = new URL(opts.publicUrl());
  const host = c.req.header('host') ?? '';
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return 'The dev mailbox answers only a Host naming this machine.';
  }
  if (!isLocalHostName(hostname, publicOrigin.hostname)) return 'The dev mailbox answers only a Host naming this machine.';
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== publicOrigin.origin && origin !== `http://${host}`)
    return 'The dev mailbox refuses requests from other origins.';
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && !ALLOWED_FETCH_SITES.has(site)) return 'The dev mailbox refuses requests from other sites.';
  return null;
}

/** The mailbox routes, or (mode 'off') a /_dev that answers 404 to everything. */
export function devMailApp(mailer: Mailer, opts: DevMailOptions): Hono {
  const app = new Hono();
  app.use('*', async (c: Context, next: Next) => {
    if (opts.mode === 'off') return refuse(c, 404, 'The dev mailbox is off (SMTP_URL is set or NODE_ENV=production).');
    const why = refusal(c, opts);
    if (why) return refuse(c, 403, why);
    await next();
    // Never cached anywhere, never framed, never sniffed.
    c.header('cache-control', 'no-store');
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  });
  app.get('/mail.json', (c) =>
    c.json(mailer.list().map(({ to, subject, text, links, sent_at }) => ({ to, subject, text, links, sent_at }))),
  );
  app.get('/mail', (c) => {
    const items = mailer
      .list()
      .map(
        (m) => `<article><h2>${esc(m.subject)}</h2><p>Pre: ${esc(m.to)} · ${esc(m.sent_at)}</p>
<pre>${esc(m.text)}</pre>${m.links.map((l) => `<p><a href="${esc(l)}">${esc(l)}</a></p>`).join('')}</article>`,
      )
      .join('<hr>');
    return c.html(`<!doctype html><html lang="sk"><head><meta charset="utf-8"><title>Poradňa – odoslané e-maily</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>body{font-family:system-ui;max-width:720px;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap}</style></head>
<body><h1>Odoslané e-maily</h1>${items || '<p>Zatiaľ žiadne e-maily.</p>'}</body></html>`);
  });
  app.all('*', (c) => refuse(c, 404, 'No such dev route.'));
  return app;
}

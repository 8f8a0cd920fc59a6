// Security headers of the app's pages and files (issue 16 item 12). The API (/auth, /rest,
// /functions, /realtime) keeps the headers of the services it mirrors; it gets only nosniff.
// Invariants:
// - no inline script runs: script-src is 'self' only. The service worker's list snapshot
//   (sw/list-snapshot.ts) loads its entry loader from /snapshot-boot.js for this reason, and it copies
//   these headers onto the page it builds, so the snapshot page runs under the same policy;
// - inline *styles* are allowed: the snapshot's saved HTML carries the virtual list's style
//   attributes, and sonner injects a <style> element. Style injection cannot run script;
// - the app cannot be framed (frame-ancestors 'none', X-Frame-Options DENY for old browsers);
// - Cross-Origin-Opener-Policy: same-origin stays although it costs a warm open from a blank tab
//   ~30–50 ms (bench row 1b⁗, bench/RESULTS.md 2026-11-27 17:47: the page gets a browsing context
//   group of its own, so it cannot take over the blank page's warm renderer): no other window keeps a
//   handle on the app, and Chrome on Android isolates sites that send COOP in a process of their own
//   (Site Isolation for COOP sites since Chrome 92, "Protecting more with Site Isolation", Google
//   Security Blog, 2021), which is where this app's users are;
// - connect-src names the public URL's origin (http and ws) besides 'self', because /env.js points
//   supabase-js at PUBLIC_URL, which may differ from the address the page was opened on;
// - images and media may come from any https host (attachments and Chatwoot files are links to
//   other hosts; message-kinds.ts allows only http(s) and same-origin addresses).
import type { Context, Next } from 'hono';

const API_PREFIXES = ['/auth/v1', '/rest/v1', '/functions/v1', '/realtime/v1'];

export function appCsp(publicUrl: string): string {
  const u = new URL(publicUrl);
  const ws = `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self'",
    `connect-src 'self' ${u.origin} ${ws}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** Adds the headers after the route answered; a route's own CSP (the dev mailbox's) wins. */
export function securityHeaders(publicUrl: () => string) {
  return async (c: Context, next: Next) => {
    await next();
    const h = c.res.headers;
    try {
      h.set('x-content-type-options', 'nosniff');
      if (API_PREFIXES.some((p) => c.req.path === p || c.req.path.startsWith(`${p}/`))) return;
      if (!h.has('content-security-policy')) h.set('content-security-policy', appCsp(publicUrl()));
      h.set('x-frame-options', 'DENY');
      h.set('referrer-policy', 'same-origin');
      h.set('permissions-policy', PERMISSIONS_POLICY);
      h.set('cross-origin-opener-policy', 'same-origin');
    } catch {
      // An immutable Response (a proxied one) keeps its upstream headers.
    }
  };
}

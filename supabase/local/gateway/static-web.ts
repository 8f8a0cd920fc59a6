// The built PWA (vite build output) on the same origin, with SPA fallback to index.html, plus /env.js
// carrying the public URL and anon key. Invariant: only files under webDir are ever served.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
  '.map': 'application/json; charset=utf-8',
};

const FALLBACK_PAGE = `<!doctype html><html lang="sk"><head><meta charset="utf-8"><title>Poradňa</title></head>
<body><h1>Poradňa</h1><p>Webová aplikácia ešte nie je zostavená. Spustite <code>npm run build</code>.</p></body></html>`;

async function file(path: string): Promise<Buffer | undefined> {
  try {
    const st = await stat(path);
    if (!st.isFile()) return undefined;
    return await readFile(path);
  } catch {
    return undefined;
  }
}

// Text assets go out gzipped when the browser accepts it (Lighthouse: uses-text-compression); each
// file is compressed once per content.
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.svg', '.txt', '.map']);
const gzipped = new Map<string, { raw: Buffer; gz: Buffer }>();
function gzipOnce(path: string, raw: Buffer): Buffer {
  const hit = gzipped.get(path);
  if (hit && hit.raw.equals(raw)) return hit.gz;
  const gz = gzipSync(raw);
  gzipped.set(path, { raw, gz });
  return gz;
}

/**
 * publishableKey: the key browsers use (`sb_publishable_…`, never the secret one); vapidPublicKey: the
 * Web Push application server key pages subscribe with (issue 20).
 */
export function envScript(publicUrl: () => string, publishableKey: string, vapidPublicKey?: string): string {
  return `window.__PORADNA_ENV__=${JSON.stringify({ supabaseUrl: publicUrl(), publishableKey, ...(vapidPublicKey ? { vapidPublicKey } : {}) })};`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The app's pages live on one origin, the one the stack prints and mails links to (issue 37 user
 * item 10): a page asked for by another loopback name of this machine (`localhost` when the stack
 * announces `127.0.0.1`, or back) is redirected there, since a session kept in one origin's storage
 * is invisible to the other, and a magic link requested on the wrong one signed nobody in.
 */
function otherLoopbackOrigin(url: URL, publicUrl: (() => string) | undefined): string | undefined {
  if (!publicUrl) return undefined;
  const pub = new URL(publicUrl());
  if (url.host === pub.host || !LOOPBACK.has(url.hostname) || !LOOPBACK.has(pub.hostname) || url.port !== pub.port) return undefined;
  return pub.origin;
}

export function staticWeb(webDir: string, env: () => string, opts: { serveSourceMaps?: boolean; publicUrl?: () => string } = {}) {
  const root = normalize(webDir + sep);
  return async (c: Context) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') return c.text('Method Not Allowed', 405);
    const url = new URL(c.req.url);
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return c.text('Bad Request', 400);
    }
    if (pathname === '/env.js') {
      return c.body(env(), 200, { 'content-type': TYPES['.js']!, 'cache-control': 'no-cache' });
    }
    // Source maps carry the whole source; served only when asked for (SOURCE_MAPS=1).
    if (pathname.endsWith('.map') && !opts.serveSourceMaps) return c.text('Not Found', 404);
    const target = normalize(join(root, pathname));
    if (!target.startsWith(root)) return c.text('Not Found', 404);
    const body = pathname.endsWith('/') ? undefined : await file(target);
    if (body) {
      const immutable = pathname.startsWith('/assets/');
      const noCache = pathname === '/sw.js' || pathname.endsWith('.html') || pathname.endsWith('.webmanifest');
      const headers: Record<string, string> = {
        'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : noCache ? 'no-cache' : 'public, max-age=3600',
        vary: 'accept-encoding',
      };
      if (COMPRESSIBLE.has(extname(target)) && body.length > 1024 && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
        return c.body(new Uint8Array(gzipOnce(target, body)), 200, { ...headers, 'content-encoding': 'gzip' });
      }
      return c.body(new Uint8Array(body), 200, headers);
    }
    // Asset-looking paths that do not exist are real 404s; everything else is an app route.
    if (extname(pathname) && !pathname.endsWith('.html')) return c.text('Not Found', 404);
    const home = otherLoopbackOrigin(url, opts.publicUrl);
    if (home) return c.redirect(`${home}${url.pathname}${url.search}`, 308);
    const index = await file(join(root, 'index.html'));
    return c.body(index ? new Uint8Array(index) : FALLBACK_PAGE, 200, {
      'content-type': TYPES['.html']!,
      'cache-control': 'no-cache',
    });
  };
}

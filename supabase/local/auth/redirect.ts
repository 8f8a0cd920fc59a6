// Where a mailed link may send the browser (open-redirect protection), after GoTrue's
// IsRedirectURLValid (supabase/auth internal/utilities/request.go) and its URI allow list
// (internal/conf/configuration.go: each entry a glob with separators '.' and '/').
// Invariants:
// - The value is parsed exactly as a browser parses it (WHATWG URL, which Node implements: tab, CR
//   and LF removed anywhere, leading/trailing C0 controls and spaces trimmed, "\" read as "/" in
//   http(s) URLs, "//host" protocol-relative), and the *parsed* URL is both what is checked and what
//   is sent in Location. So "/%09/evil.example/" (a tab that the browser drops, leaving
//   "//evil.example/") is judged as http://evil.example/ and refused; no string pattern can be
//   fooled by a spelling the browser reads differently.
// - Allowed: the site's own origin (scheme, host and port of PUBLIC_URL), any path on it; or a URL
//   matching an entry of REDIRECT_ALLOW_LIST. Userinfo (user:pass@) is never allowed. Anything else
//   falls back to the site URL, as GoTrue's GetReferrer does.
// - Stricter than GoTrue: other loopback addresses and ports are not allowed implicitly.

import type { AuthDeps } from './deps.ts';

const DECIMAL_HOST = /^[0-9]+$/;
const REGULAR_HOST = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

function escapeRe(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** gobwas/glob with separators '.' and '/': `**` any text, `*` and `?` never cross a separator. */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (ch === '*') re += '[^./]*';
    else if (ch === '?') re += '[^./]';
    else re += escapeRe(ch);
  }
  return new RegExp(`^${re}$`);
}

function parseAllowList(entries: readonly string[]): RegExp[] {
  return entries.map((e) => e.trim()).filter((e) => e !== '').map(globToRegExp);
}

const compiled = new WeakMap<readonly string[], RegExp[]>();

function allowedByList(target: URL, allowList: readonly string[]): boolean {
  if (!allowList.length) return false;
  let patterns = compiled.get(allowList);
  if (!patterns) {
    patterns = parseAllowList(allowList);
    compiled.set(allowList, patterns);
  }
  const host = target.hostname;
  const isHttp = target.protocol === 'http:' || target.protocol === 'https:';
  // GoTrue: a decimal-integer host (http://2130706433/) or odd host characters are never allowed.
  if (DECIMAL_HOST.test(host)) return false;
  if (isHttp && !host.startsWith('[') && !REGULAR_HOST.test(host)) return false;
  const noFragment = target.href.split('#')[0]!;
  return patterns.some((p) => p.test(noFragment));
}

/**
 * The URL a link may redirect to: `raw` parsed as a browser would (relative to the site), if it is
 * on the site's origin or on the allow list; otherwise the site URL.
 */
export function safeRedirect(publicUrl: string, raw: string | undefined, allowList: readonly string[] = []): string {
  const site = new URL(publicUrl);
  const fallback = `${site.origin}/`;
  if (!raw) return fallback;
  let target: URL;
  try {
    target = new URL(raw, fallback);
  } catch {
    return fallback;
  }
  if (target.username || target.password) return fallback;
  if (target.origin === site.origin && (target.protocol === 'http:' || target.protocol === 'https:')) return target.href;
  return allowedByList(target, allowList) ? target.href : fallback;
}

/** safeRedirect with the stack's public URL and REDIRECT_ALLOW_LIST. */
export function redirectFor(deps: Pick<AuthDeps, 'publicUrl' | 'config'>, raw: string | undefined): string {
  return safeRedirect(deps.publicUrl(), raw, deps.config.redirectAllowList);
}

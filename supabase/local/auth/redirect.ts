// Where a mailed link may send the browser. Like GoTrue's uri_allow_list with only the site URL
// allowed: the public origin itself or a path on it; anything else falls back to the site URL, so
// a link can never hand tokens to another origin (open-redirect protection).
export function safeRedirect(publicUrl: string, raw: string | undefined): string {
  const site = new URL(publicUrl);
  const fallback = `${site.origin}/`;
  if (!raw) return fallback;
  // "//evil.test" and "/\evil.test" are protocol-relative to browsers; never treat them as paths.
  if (raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\')) {
    return new URL(raw, site.origin).toString();
  }
  let target: URL;
  try {
    target = new URL(raw);
  } catch {
    return fallback;
  }
  if (target.origin !== site.origin || target.username || target.password) return fallback;
  return target.toString();
}

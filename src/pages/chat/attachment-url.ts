// Which address an attachment's link or image may use (issue 16 item 14). URLs are parsed the way the
// browser will parse them, never pattern-matched: '/\host/x', '/\t/host' and '\\host' look like paths
// but browsers resolve them to another host, so a prefix check let them open off-site.
// Rule: an absolute http(s) URL is taken as the sender wrote it (Chatwoot files live on its own host,
// and the link says so); anything else is resolved against our origin and kept only if it stays on
// it. Never javascript:, data:, blob: or credentials in the URL. The normalised href is returned, so
// the browser gets exactly what was checked.

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

function parse(raw: string, base?: string): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}

export function safeAttachmentUrl(raw: unknown, origin: string | undefined = globalThis.location?.origin): string | null {
  if (typeof raw !== 'string' || raw === '' || raw.length > 8192) return null;
  const absolute = parse(raw);
  if (absolute) {
    if (!WEB_PROTOCOLS.has(absolute.protocol) || absolute.username || absolute.password) return null;
    return absolute.href;
  }
  if (!origin) return null;
  const site = parse(origin);
  const resolved = site && parse(raw, site.origin);
  if (!site || !resolved || resolved.origin !== site.origin || resolved.username || resolved.password) return null;
  return resolved.href;
}

// Is an IP address on the public internet? Used to keep the Chatwoot base URL (saved by an admin, so
// attacker-influenced if an admin session is stolen) from reaching the server's own network: loopback,
// private, link-local (cloud metadata 169.254.169.254), CGNAT, and IPv6 unique-local, link-local and
// the forms that embed an IPv4 address (mapped, compatible, translated, NAT64, 6to4). Ranges: IANA
// special-purpose registries (RFC 6890 and its updates). Anything that does not parse is not public.

type V4 = [number, number, number, number];

/** IPv4 special-purpose blocks as [first octets..., prefix length]. */
const V4_BLOCKED: Array<[number, number, number, number, number]> = [
  [0, 0, 0, 0, 8], // "this network"
  [10, 0, 0, 0, 8], // private
  [100, 64, 0, 0, 10], // CGNAT (shared address space)
  [127, 0, 0, 0, 8], // loopback
  [169, 254, 0, 0, 16], // link-local, cloud metadata
  [172, 16, 0, 0, 12], // private
  [192, 0, 0, 0, 24], // IETF protocol assignments
  [192, 0, 2, 0, 24], // TEST-NET-1
  [192, 88, 99, 0, 24], // 6to4 relay anycast
  [192, 168, 0, 0, 16], // private
  [198, 18, 0, 0, 15], // benchmarking
  [198, 51, 100, 0, 24], // TEST-NET-2
  [203, 0, 113, 0, 24], // TEST-NET-3
  [224, 0, 0, 0, 4], // multicast
  [240, 0, 0, 0, 4], // reserved, broadcast
];

function parseV4(ip: string): V4 | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const nums = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return nums.every((n) => n >= 0 && n <= 255) ? (nums as V4) : null;
}

function v4Public(v4: V4): boolean {
  const n = ((v4[0] << 24) | (v4[1] << 16) | (v4[2] << 8) | v4[3]) >>> 0;
  return !V4_BLOCKED.some(([a, b, c, d, len]) => {
    const base = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
    const mask = len === 0 ? 0 : (~0 << (32 - len)) >>> 0;
    return (n & mask) >>> 0 === (base & mask) >>> 0;
  });
}

/** Eight 16-bit groups, or null. Accepts '::' compression, a zone id and a dotted IPv4 tail. */
function parseV6(raw: string): number[] | null {
  let ip = raw.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (tail) {
    const v4 = parseV4(tail[1]!);
    if (!v4) return null;
    ip = ip.slice(0, -tail[1]!.length) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const all = [...head, ...Array<string>(fill).fill('0'), ...rest];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

// Public IPv6 is global unicast 2000::/3 only (IANA IPv6 address space): everything below it — ::,
// ::1, the IPv4-compatible ::a.b.c.d that URL() spells [::7f00:1] (issue 36 info row), ::ffff:0:a.b.c.d
// (SIIT), 100::/64 — is refused whatever IPv4 address it carries; the forms whose IPv4 address is
// really reached are judged by that address.
function v6Public(g: number[]): boolean {
  const embedded = (hi: number, lo: number): V4 => [hi >> 8, hi & 255, lo >> 8, lo & 255];
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4Public(embedded(g[6]!, g[7]!)); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    // NAT64 well-known prefix 64:ff9b::/96; the local-use 64:ff9b:1::/48 may translate to anything.
    return g.slice(2, 6).every((x) => x === 0) && v4Public(embedded(g[6]!, g[7]!));
  }
  if ((g[0]! & 0xe000) !== 0x2000) return false; // not global unicast (ULA, link-local, multicast, ::/8, …)
  if (g[0] === 0x2002) return v4Public(embedded(g[1]!, g[2]!)); // 6to4
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x3fff && g[1]! < 0x1000) return false; // documentation 3fff::/20 (RFC 9637)
  if (g[0] === 0x2001 && g[1]! < 0x0200) return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID…)
  return true;
}

export function isPublicAddress(ip: string): boolean {
  const v4 = parseV4(ip);
  if (v4) return v4Public(v4);
  const v6 = parseV6(ip);
  return v6 !== null && v6Public(v6);
}

/** An IP literal as URL.hostname spells it ('[::1]', '127.0.0.1'), or null for a name. */
export function ipLiteral(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  return parseV4(hostname) ? hostname : null;
}

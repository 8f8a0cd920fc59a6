// Authenticates a Chatwoot webhook: a long secret in the URL (?secret=…), compared in constant time,
// and, when Chatwoot signs (X-Chatwoot-Signature: sha256=HMAC(secret, "{timestamp}.{body}")), a valid
// signature no older than five minutes.
const enc = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(text)));
}

/** Equal-time comparison: both sides are hashed first, so neither length nor content leaks. */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(message)));
  return Array.from(sig, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const MAX_SIGNATURE_AGE_S = 300;

export async function verifySignature(
  headers: Headers,
  rawBody: string,
  secret: string,
  nowS = Math.floor(Date.now() / 1000),
): Promise<'absent' | 'valid' | 'invalid'> {
  const header = headers.get('x-chatwoot-signature');
  if (!header) return 'absent';
  const ts = headers.get('x-chatwoot-timestamp') ?? '';
  if (!/^\d+$/.test(ts) || Math.abs(nowS - Number(ts)) > MAX_SIGNATURE_AGE_S) return 'invalid';
  const expected = `sha256=${await hmacHex(secret, `${ts}.${rawBody}`)}`;
  return (await secretsEqual(header, expected)) ? 'valid' : 'invalid';
}

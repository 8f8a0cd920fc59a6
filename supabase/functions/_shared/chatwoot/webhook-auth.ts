// Authenticates a Chatwoot webhook: a long secret in the URL (?secret=…), compared in constant time,
// and, when Chatwoot signs (X-Chatwoot-Signature: sha256=HMAC(secret, "{timestamp}.{body}")), a valid
// signature no older than five minutes.
const enc = new TextEncoder();

/**
 * The URL secret must be at least this long (a long random secret: it is the only credential of an
 * unsigned Chatwoot ≤ 4.10 delivery). The local stack refuses to start with a shorter one
 * (supabase/local/config.ts); the function answers 503 with this reason to probe and delivery alike.
 */
export const MIN_WEBHOOK_SECRET_LENGTH = 24;

export const SECRET_NOT_CONFIGURED = 'Webhook secret is not configured';
export const secretTooShort = (length: number) =>
  `Webhook secret is too short: CHATWOOT_WEBHOOK_SECRET has ${length} characters, at least ${MIN_WEBHOOK_SECRET_LENGTH} are required`;

/** Why the configured secret cannot authenticate any delivery, or null when it can. */
export function secretProblem(secret: string | undefined): string | null {
  if (!secret) return SECRET_NOT_CONFIGURED;
  if (secret.length < MIN_WEBHOOK_SECRET_LENGTH) return secretTooShort(secret.length);
  return null;
}

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

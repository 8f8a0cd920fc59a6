// pushsubscriptionchange (R11.3): the push service replaced or expired the subscription, often with
// no page open. The worker subscribes again with the old subscription's VAPID key (or takes the new
// one the browser already made), then tells the server with the page's mirrored session: the new
// endpoint through push_subscribe (an upsert) and the old one through push_unsubscribe. Like the
// Background Sync flush it never refreshes a token (sync/background/session-store.ts): without a
// usable one it leaves the server's record to the next app open, which re-registers anyway (R11.2).
import type { MirroredSession } from '../sync/background/session-store.ts';

export interface SubscriptionLike {
  endpoint: string;
  options?: { applicationServerKey?: ArrayBuffer | null };
  toJSON(): { endpoint?: string; keys?: Record<string, string> };
}

export interface ResubscribeDeps {
  session(): Promise<MirroredSession | null>;
  now(): number;
  subscribe(applicationServerKey: ArrayBuffer): Promise<SubscriptionLike>;
  /** POST /rest/v1/rpc/<fn> with the session's token. */
  rpc(s: MirroredSession, fn: string, args: Record<string, unknown>): Promise<void>;
  userAgent: string;
}

export async function resubscribe(
  oldSub: SubscriptionLike | null,
  newSub: SubscriptionLike | null,
  deps: ResubscribeDeps,
): Promise<'registered' | 'no-session' | 'no-key'> {
  let sub = newSub;
  if (!sub) {
    const key = oldSub?.options?.applicationServerKey;
    if (!key) return 'no-key';
    sub = await deps.subscribe(key);
  }
  const s = await deps.session();
  if (!s || s.expiresAt * 1000 - deps.now() <= 30_000) return 'no-session';
  const keys = sub.toJSON().keys ?? {};
  await deps.rpc(s, 'push_subscribe', {
    p_endpoint: sub.endpoint,
    p_p256dh: keys.p256dh ?? '',
    p_auth: keys.auth ?? '',
    p_user_agent: deps.userAgent.slice(0, 500),
  });
  if (oldSub && oldSub.endpoint !== sub.endpoint) await deps.rpc(s, 'push_unsubscribe', { p_endpoint: oldSub.endpoint });
  return 'registered';
}

/** The worker's rpc: plain fetch, as postgrest-js would send it. */
export async function fetchRpc(s: MirroredSession, fn: string, args: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${s.url.replace(/\/+$/, '')}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: s.anonKey, Authorization: `Bearer ${s.accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  if (!res.ok) throw new Error(`${fn}: HTTP ${res.status}`);
}

// The page's side of Web Push (issue 20; rules R11.x in sync/SPEC.md): what this browser can do, and
// turning notifications on and off. The server's contract: push_subscribe (an upsert by endpoint),
// push_unsubscribe, push_viewing (push-viewing.ts). The VAPID public key comes from /env.js
// (`vapidPublicKey`) or the build (VITE_VAPID_PUBLIC_KEY); without one this server sends none.
// Invariants: permission is only ever requested from a user's click (enablePush), never on load;
// once the user turned notifications off here, an app open never turns them back on.
import { loadSupabase } from '../auth/lazy-supabase.ts';

export type PushState = 'on' | 'off' | 'blocked' | 'unsupported' | 'ios-install' | 'unavailable';

/** Set when the user turned notifications off in this browser; cleared when they turn them on. */
export const PUSH_OFF_KEY = 'poradna.push.off';
/** Set once the prompt after the first sent message was shown (answered or not). */
export const PUSH_ASKED_KEY = 'poradna.push.asked';

export interface PushPlatform {
  vapidKey: string | null;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  permission: NotificationPermission | null;
  ios: boolean;
  standalone: boolean;
}

/** What this browser and server allow before any subscription is looked at. */
export function capability(p: PushPlatform): 'ok' | 'blocked' | Exclude<PushState, 'on' | 'off' | 'blocked'> {
  // iOS Safari offers Web Push only to a web app added to the home screen (iOS 16.4+).
  if (p.ios && !p.standalone) return 'ios-install';
  if (!p.hasServiceWorker || !p.hasPushManager || !p.hasNotification) return 'unsupported';
  if (!p.vapidKey) return 'unavailable';
  if (p.permission === 'denied') return 'blocked';
  return 'ok';
}

export function vapidPublicKey(): string | null {
  const injected = (window.__PORADNA_ENV__ as { vapidPublicKey?: unknown } | undefined)?.vapidPublicKey;
  const baked = import.meta.env.VITE_VAPID_PUBLIC_KEY as string | undefined;
  const key = (typeof injected === 'string' && injected) || baked || '';
  return key.trim() || null;
}

export function readPlatform(): PushPlatform {
  const ua = navigator.userAgent;
  const ios = /iPad|iPhone|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
  return {
    vapidKey: vapidPublicKey(),
    hasServiceWorker: 'serviceWorker' in navigator,
    hasPushManager: 'PushManager' in window,
    hasNotification: 'Notification' in window,
    permission: 'Notification' in window ? Notification.permission : null,
    ios,
    standalone,
  };
}

const optedOut = () => localStorage.getItem(PUSH_OFF_KEY) === '1';

export function urlBase64ToBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const b64 = (b64url + '='.repeat((4 - (b64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

async function rpc(fn: string, args: Record<string, unknown>): Promise<void> {
  const { supabase } = await loadSupabase();
  const { error } = await supabase.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
}

/** Our subscription for the current key: the existing one, or a new one (a key change replaces it). */
async function ensureSubscription(reg: ServiceWorkerRegistration, key: string): Promise<PushSubscription> {
  const wanted = urlBase64ToBytes(key);
  const existing = await reg.pushManager.getSubscription();
  if (existing && sameKey(existing.options.applicationServerKey, wanted)) return existing;
  if (existing) await existing.unsubscribe().catch(() => false);
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: wanted });
}

async function register(sub: PushSubscription): Promise<void> {
  const keys = sub.toJSON().keys ?? {};
  await rpc('push_subscribe', { p_endpoint: sub.endpoint, p_p256dh: keys.p256dh ?? '', p_auth: keys.auth ?? '', p_user_agent: navigator.userAgent.slice(0, 500) });
}

export async function currentPushState(p: PushPlatform = readPlatform()): Promise<PushState> {
  const cap = capability(p);
  if (cap !== 'ok') return cap;
  if (p.permission !== 'granted' || optedOut()) return 'off';
  const reg = await registration();
  return (await reg?.pushManager.getSubscription()) ? 'on' : 'off';
}

/** From a click only: asks for permission (if not yet given), subscribes and registers. */
export async function enablePush(): Promise<PushState> {
  const p = readPlatform();
  const cap = capability(p);
  if (cap !== 'ok') return cap;
  const permission = p.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off'; // dismissed: ask again on the next click
  const reg = await navigator.serviceWorker.ready;
  await register(await ensureSubscription(reg, p.vapidKey!));
  localStorage.removeItem(PUSH_OFF_KEY);
  return 'on';
}

/** From the card: the server forgets this device first, then the browser drops the subscription. */
export async function disablePush(): Promise<PushState> {
  localStorage.setItem(PUSH_OFF_KEY, '1');
  await forgetThisDevice();
  return currentPushState();
}

async function forgetThisDevice(): Promise<void> {
  const sub = await (await registration())?.pushManager.getSubscription();
  if (!sub) return;
  await rpc('push_unsubscribe', { p_endpoint: sub.endpoint });
  await sub.unsubscribe();
}

/**
 * R11.2: every app open re-registers (push_subscribe is an upsert) when permission is granted and
 * the user has not turned notifications off here, so a server that lost or pruned the row, a new
 * VAPID key or a subscription the browser replaced while no worker ran is mended on the next open.
 */
export async function registerOnOpen(): Promise<void> {
  const p = readPlatform();
  if (capability(p) !== 'ok' || p.permission !== 'granted' || optedOut()) return;
  const reg = await navigator.serviceWorker.ready;
  await register(await ensureSubscription(reg, p.vapidKey!));
}

/** R11.2: sign-out asks the server to forget this device while the session still exists. */
export async function unregisterForSignOut(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    await forgetThisDevice();
  } catch (err) {
    // Never blocks a sign-out; the server prunes the endpoint once the push service answers 404/410.
    console.warn('push sign-out:', err);
  }
}

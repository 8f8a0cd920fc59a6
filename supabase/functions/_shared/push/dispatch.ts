// Sends due push notifications (issue 20, rules R10.x of sync/SPEC.md): claims them from the queue
// (claim_push_notifications, which already dropped those seen in time), encrypts and POSTs each to
// every device of the user with web-push (VAPID, RFC 8291 aes128gcm), and reports the push
// services' answers (finish_push_notification: 404/410 deletes the subscription). Shared by the
// local stack's push worker and the hosted push-dispatch function, which send many notifications at
// once (in-flight.ts, pump.ts).
import webpush from 'web-push';
import type { Db } from '../clients.ts';
import type { FunctionEnv } from '../types.ts';
import { breakerOpen, tripBreaker } from './breaker.ts';
import { ConnectTimeoutAgent } from './connect-timeout.ts';
import { endpointAllowed } from './endpoint.ts';
import { messagePayload, topicFor, type ClaimedNotification } from './payload.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** mailto: or https: contact the push services may use (RFC 8292). */
  subject: string;
}

/** How long a push service may keep an undelivered notification (RFC 8030 TTL): a day. */
export const PUSH_TTL_SECONDS = 24 * 3600;
/** A chat reply is what the user waits for: RFC 8030 Urgency high (delivered even on battery saver). */
export const PUSH_URGENCY = 'high';
const SEND_TIMEOUT_MS = 10_000;

export const DEFAULT_VAPID_SUBJECT = 'mailto:no-reply@poradna.test';

/** The keys from the function env (hosted secrets VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT). */
export function vapidFromEnv(env: FunctionEnv): VapidKeys | undefined {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) return undefined;
  return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT || DEFAULT_VAPID_SUBJECT };
}

export interface SendResult {
  subscription_id: string;
  /** The push service's HTTP status; 0 when it did not answer; 400 for an endpoint we refuse to call. */
  status: number;
}

/** Every send goes through a ConnectTimeoutAgent (issue 36 N3: TLS within 2 s). PUSH_CA_CERT (PEM):
 *  a CA to trust besides the system's, for a push service with its own certificate (the tests' fake
 *  push service on loopback). */
let plainAgent: ConnectTimeoutAgent | undefined;
let caAgent: { pem: string; agent: ConnectTimeoutAgent } | undefined;
function agentFor(env: FunctionEnv): ConnectTimeoutAgent {
  const pem = env.PUSH_CA_CERT;
  if (!pem) return (plainAgent ??= new ConnectTimeoutAgent({ keepAlive: true })); // as Node's global agent
  if (caAgent?.pem !== pem) caAgent = { pem, agent: new ConnectTimeoutAgent({ ca: pem }) };
  return caAgent.agent;
}

async function sendOne(
  sub: ClaimedNotification['subscriptions'][number],
  body: string,
  topic: string,
  vapid: VapidKeys,
  env: FunctionEnv,
): Promise<SendResult> {
  if (!endpointAllowed(sub.endpoint, env)) return { subscription_id: sub.id, status: 400 };
  if (breakerOpen(sub.endpoint)) return { subscription_id: sub.id, status: 0 };
  try {
    const res = await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, body, {
      vapidDetails: vapid,
      TTL: PUSH_TTL_SECONDS,
      urgency: PUSH_URGENCY,
      topic,
      contentEncoding: 'aes128gcm',
      timeout: SEND_TIMEOUT_MS,
      agent: agentFor(env),
    });
    return { subscription_id: sub.id, status: res.statusCode };
  } catch (err) {
    const status = (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number') return { subscription_id: sub.id, status };
    tripBreaker(sub.endpoint); // no answer at all
    return { subscription_id: sub.id, status: 0 };
  }
}

export interface DispatchOutcome {
  notifications: number;
  sent: number;
  gone: number;
  failed: number;
}

/** Claims up to `limit` due notifications (the queue's lease keeps them from a second claim). */
export async function claimDue(db: Db, worker: string, limit = 20): Promise<ClaimedNotification[]> {
  const claimed = await db.rpc('claim_push_notifications', { p_worker: worker, p_limit: limit });
  if (claimed.error) throw new Error(`claim_push_notifications: ${claimed.error.message}`);
  return (claimed.data ?? []) as ClaimedNotification[];
}

/** Sends one claimed notification to every device of its user at once and reports the answers. */
export async function deliver(db: Db, n: ClaimedNotification, vapid: VapidKeys, env: FunctionEnv): Promise<DispatchOutcome> {
  const body = JSON.stringify(messagePayload(n));
  const topic = topicFor(n.conversation_id);
  const results = await Promise.all(n.subscriptions.map((s) => sendOne(s, body, topic, vapid, env)));
  const outcome: DispatchOutcome = { notifications: 1, sent: 0, gone: 0, failed: 0 };
  for (const r of results) {
    if (r.status >= 200 && r.status < 300) outcome.sent++;
    else if (r.status === 404 || r.status === 410) outcome.gone++;
    else outcome.failed++;
  }
  const done = await db.rpc('finish_push_notification', { p_id: n.id, p_results: results });
  if (done.error) throw new Error(`finish_push_notification: ${done.error.message}`);
  return outcome;
}

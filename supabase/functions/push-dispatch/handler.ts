// push-dispatch (service role only): sends due push notifications on a hosted Supabase project, where
// no local-stack push worker runs. pg_cron calls it through pg_net when something is due
// (migration 20261124000520_push_dispatch_schedule.sql). VAPID keys come from the function secrets
// VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT. Reply {batches, notifications, sent, gone, failed}.
// The sends run side by side and the call claims again whenever one ends (pump.ts, issue 36 N3); the
// local stack's push worker sends with the same InFlightSends (supabase/local/push-worker.ts).
import { serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { vapidFromEnv } from '../_shared/push/dispatch.ts';
import { pump, type PumpLimits } from '../_shared/push/pump.ts';
import { requireServiceRole } from '../ai-reply-worker/service-caller.ts';

// A call claims for 15 s and then waits for its sends (each ends within web-push's 10 s timeout and
// the 2 s connect bound), so it answers within pg_net's 30 s (invoke_push_dispatch); pg_cron calls again
// every 5 s while something is due. 200 notifications a call, as the 10 batches of 20 before; 32 sends
// at once keep one call's sockets and memory modest in an Edge Function.
const LIMITS: PumpLimits = { maxInFlight: 32, claimMs: 15_000, maxClaimed: 200, pollMs: 250 };

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    await requireServiceRole(req, env);
    const vapid = vapidFromEnv(env);
    if (!vapid) throw new HttpError(503, 'Push is not configured: set the VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY secrets');
    const db = serviceClient(env);
    return json(await pump(db, vapid, `edge-${crypto.randomUUID().slice(0, 8)}`, env, LIMITS));
  })(req);

export default handler;

// push-dispatch (service role only): sends due push notifications on a hosted Supabase project, where
// no local-stack push worker runs. pg_cron calls it through pg_net when something is due
// (migration 20261124000520_push_dispatch_schedule.sql). VAPID keys come from the function secrets
// VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT. Reply {batches, notifications, sent, gone, failed}.
// The same dispatchOnce runs in the local stack's push worker (supabase/local/push-worker.ts).
import { serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { dispatchOnce, vapidFromEnv } from '../_shared/push/dispatch.ts';
import { requireServiceRole } from '../ai-reply-worker/service-caller.ts';

const MAX_BATCHES_PER_CALL = 10;
const BUDGET_MS = 25_000;

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    await requireServiceRole(req, env);
    const vapid = vapidFromEnv(env);
    if (!vapid) throw new HttpError(503, 'Push is not configured: set the VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY secrets');
    const db = serviceClient(env);
    const total = { batches: 0, notifications: 0, sent: 0, gone: 0, failed: 0 };
    const end = Date.now() + BUDGET_MS;
    while (total.batches < MAX_BATCHES_PER_CALL && Date.now() < end) {
      const outcome = await dispatchOnce(db, vapid, `edge-${crypto.randomUUID().slice(0, 8)}`, env);
      if (outcome === 'idle') break;
      total.batches++;
      total.notifications += outcome.notifications;
      total.sent += outcome.sent;
      total.gone += outcome.gone;
      total.failed += outcome.failed;
    }
    return json(total);
  })(req);

export default handler;

// chatwoot-webhook (public, verify_jwt off): Chatwoot's account or inbox webhook. Requires the long
// secret of CHATWOOT_WEBHOOK_SECRET in the URL (?secret=…), checks the HMAC signature when Chatwoot
// sends one, and maps message_created, message_updated and conversation_status_changed onto our
// messages and conversations idempotently: the same event twice changes nothing (unique
// chatwoot_message_id, correlation ids echoed back in source_id). Every event is recorded in
// integration_events. A bare {webhook_test} probe (the admin's function check) meets the same secret
// configuration check as a real delivery (issue 21 admin item 4: it used to be answered first, green
// while every delivery got 503), is verified like one when it carries ?secret=, and stores nothing.
import { serviceClient, type Db } from '../_shared/clients.ts';
import { handle, HttpError, json } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { secretProblem, secretsEqual, verifySignature } from '../_shared/chatwoot/webhook-auth.ts';
import { agentLastSeen, mapMessage, mapStatus, type ChatwootWebhook, type MappedMessage } from '../_shared/chatwoot/webhook-map.ts';
import { ownerChange } from '../_shared/chatwoot/webhook-owner.ts';
import { applyState, eventTime } from '../_shared/chatwoot/webhook-order.ts';

async function record(db: Db, kind: string, level: 'info' | 'warning' | 'error', data: Record<string, unknown>): Promise<void> {
  await db.from('integration_events').insert({ kind, level, data });
}

async function conversationFor(db: Db, chatwootId: number): Promise<{ id: string; status: string } | null> {
  const r = await db.from('conversations').select('id, status').eq('chatwoot_conversation_id', chatwootId).maybeSingle<{ id: string; status: string }>();
  return r.data;
}

async function upsertMessage(db: Db, convId: string, m: MappedMessage): Promise<'inserted' | 'matched' | 'exists'> {
  const byId = await db.from('messages').select('id').eq('chatwoot_message_id', m.chatwoot_message_id).maybeSingle();
  if (byId.data) return 'exists';
  if (m.correlation_id) {
    // Our own message coming back: attach Chatwoot's id instead of storing a copy.
    const ours = await db
      .from('messages')
      .update({ chatwoot_message_id: m.chatwoot_message_id })
      .eq('conversation_id', convId)
      .eq('client_correlation_id', m.correlation_id)
      .is('chatwoot_message_id', null)
      .select('id');
    if ((ours.data?.length ?? 0) > 0) return 'matched';
    const same = await db.from('messages').select('id').eq('conversation_id', convId).eq('client_correlation_id', m.correlation_id).maybeSingle();
    if (same.data) return 'exists';
  }
  const ins = await db.from('messages').insert({
    conversation_id: convId,
    text: m.text,
    type: m.type,
    direction: m.direction,
    source: 'chatwoot',
    chatwoot_message_id: m.chatwoot_message_id,
    payload: m.payload,
    ...(m.correlation_id ? { client_correlation_id: m.correlation_id } : {}),
  });
  if (ins.error?.code === '23505') return 'exists'; // a concurrent delivery of the same event won
  if (ins.error) throw new HttpError(500, `could not store the message: ${ins.error.message}`);
  return 'inserted';
}

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method === 'HEAD' || req.method === 'GET') return json({ ok: true });
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const raw = await req.text();
    if (raw.length > 512_000) throw new HttpError(413, 'Payload too large');
    let body: ChatwootWebhook;
    try {
      body = JSON.parse(raw) as ChatwootWebhook;
    } catch {
      throw new HttpError(400, 'Request body must be valid JSON');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'Request body must be a JSON object');
    const secret = env.CHATWOOT_WEBHOOK_SECRET ?? '';
    const problem = secretProblem(secret);
    if (problem !== null) throw new HttpError(503, problem);
    const givenParam = new URL(req.url).searchParams.get('secret');
    if ('webhook_test' in body && Object.keys(body).length === 1) {
      // The admin page has no secret: without one the probe proves the configuration is usable; with
      // one (the URL pasted into Chatwoot) it proves the secret too.
      if (givenParam !== null && !(await secretsEqual(givenParam, secret))) throw new HttpError(401, 'Invalid webhook secret');
      return json({ ok: true, test: true, ...(givenParam !== null ? { secret: 'valid' } : {}) });
    }
    if (!(await secretsEqual(givenParam ?? '', secret))) throw new HttpError(401, 'Invalid webhook secret');
    const sig = await verifySignature(req.headers, raw, env.CHATWOOT_WEBHOOK_HMAC_SECRET ?? secret);
    if (sig === 'invalid') throw new HttpError(401, 'Invalid webhook signature');

    const db = serviceClient(env);
    const event = typeof body.event === 'string' ? body.event : 'unknown';
    const cfg = await db.from('chatwoot_config').select('account_id').limit(1).maybeSingle<{ account_id: number }>();
    if (cfg.data && body.account?.id !== undefined && Number(body.account.id) !== Number(cfg.data.account_id)) {
      await record(db, `webhook.${event}`, 'warning', { reason: 'foreign account', account_id: body.account.id });
      return json({ ok: true, ignored: 'foreign account' });
    }
    const chatwootConv = body.conversation?.id ?? (event.startsWith('conversation_') ? body.id : undefined);
    const conv = typeof chatwootConv === 'number' ? await conversationFor(db, chatwootConv) : null;
    const base = { event, chatwoot_conversation_id: chatwootConv ?? null, conversation_id: conv?.id ?? null, signed: sig === 'valid' };

    if (!conv) {
      await record(db, `webhook.${event}`, 'warning', { ...base, reason: 'unknown conversation' });
      return json({ ok: true, ignored: 'unknown conversation' });
    }
    // Read by the agent (R10.11): any event of the conversation may carry a newer agent_last_seen_at.
    // A mere view sends no webhook (Chatwoot writes it with update_columns), so it arrives with the
    // conversation's next event. Chatwoot's value has one-second resolution (`.to_i`), and Chatwoot
    // itself counts a message of that same second as seen (Message.unread_since: epoch > seen.to_i + 1),
    // so the whole second counts here too; mark_read_by_agent caps the stamp at now().
    const seenAt = agentLastSeen(body, event);
    if (seenAt) {
      const endOfSecond = new Date(seenAt.getTime() + 999);
      const seen = await db.rpc('mark_read_by_agent', { p_conversation_id: conv.id, p_seen_at: endOfSecond.toISOString() });
      if (seen.error) await record(db, `webhook.${event}`, 'warning', { ...base, agent_last_seen_at: seenAt.toISOString(), error: seen.error.message });
    }
    // R14.5: who owns the conversation now. Before the agent's message is stored, so no AI reply can
    // land between the two; status changes first apply the status below.
    // R14.9: applied by the event's own time, so a late delivery never undoes a newer state.
    const owner = ownerChange(body, event, conv.status);
    const at = eventTime(body, event);
    let stale = false;
    if (event === 'message_created' && owner) {
      const r = await applyState(db, conv.id, at, null, owner);
      if ('error' in r) throw new HttpError(500, `could not change the conversation's owner: ${r.error}`);
      stale = r.outcome === 'stale';
    }
    if (event === 'message_created' || event === 'message_updated') {
      const m = mapMessage(body);
      if (!m) {
        await record(db, `webhook.${event}`, 'info', { ...base, skipped: body.private ? 'private note' : 'not user-visible' });
        return json({ ok: true, ignored: 'not user-visible' });
      }
      if (event === 'message_updated') {
        const upd = await db.rpc('chatwoot_update_message', {
          p_conversation_id: conv.id,
          p_chatwoot_message_id: m.chatwoot_message_id,
          p_at: at,
          p_text: m.text,
          p_type: m.type,
          p_payload: m.payload,
        });
        if (upd.error) throw new HttpError(500, `could not update the message: ${upd.error.message}`);
        const outcome = upd.data === 'missing' ? await upsertMessage(db, conv.id, m) : (upd.data as 'updated' | 'stale');
        await record(db, `webhook.${event}`, 'info', { ...base, chatwoot_message_id: m.chatwoot_message_id, outcome });
        return json({ ok: true, outcome });
      }
      const outcome = await upsertMessage(db, conv.id, m);
      await record(db, `webhook.${event}`, 'info', { ...base, chatwoot_message_id: m.chatwoot_message_id, outcome, ...(stale ? { owner: 'stale' } : {}) });
      return json({ ok: true, outcome });
    }
    if (event === 'conversation_status_changed' || event === 'conversation_updated') {
      const status = mapStatus(body.status ?? body.conversation?.status);
      const r = await applyState(db, conv.id, at, status, owner);
      if ('error' in r) {
        await record(db, `webhook.${event}`, 'error', { ...base, error: r.error });
        return json({ ok: false, error: 'status not applied' }, 409);
      }
      if (r.outcome === 'stale') {
        await record(db, `webhook.${event}`, 'info', { ...base, at, outcome: 'stale' });
        return json({ ok: true, outcome: 'stale' });
      }
      await record(db, `webhook.${event}`, 'info', { ...base, status, ...(owner ? { owner: owner.state } : {}) });
      return json({ ok: true, status });
    }
    await record(db, `webhook.${event}`, 'info', base);
    return json({ ok: true, ignored: 'event not used' });
  })(req);

export default handler;

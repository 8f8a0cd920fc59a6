// request-human {conversation_id} -> {conversation, chatwoot}: 'Chcem hovoriť s človekom' (issue 39,
// sync/SPEC.md R14.2 and R14.7). The owner state moves through the RPC request_human AS THE CALLER
// (the database decides who may: members of the account acted in; 404 for anyone else, 400 for a
// completed conversation). Then, when the conversation is waiting for a human and is not linked to
// Chatwoot yet, it is opened in its specialist's Chatwoot inbox (the same link the first Chatwoot
// send makes, _shared/chatwoot/link.ts), so the agents see it in their inbox. Chatwoot's part never
// undoes the request: its outcome is reported in `chatwoot` and, when it could not be done, recorded
// in integration_events for the admin's diagnostics:
//   'linked'          the conversation is (now or already) in Chatwoot;
//   'not_configured'  no Chatwoot (a default install): the request is the state alone;
//   'no_inbox'        the specialist has no Chatwoot inbox;
//   'failed'          Chatwoot refused or did not answer;
//   'unchanged'       a human already owns the conversation (nothing to open).
import { requireUser } from '../_shared/caller.ts';
import { serviceClient, type Db } from '../_shared/clients.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import { ensureLinked } from '../_shared/chatwoot/link.ts';
import { loadChatwootSettings } from '../_shared/chatwoot/settings.ts';
import type { FunctionEnv, FunctionHandler } from '../_shared/types.ts';
import { uuid } from '../_shared/validate.ts';

export type HandoffChatwoot = 'linked' | 'not_configured' | 'no_inbox' | 'failed' | 'unchanged';

async function recordFailure(service: Db, conversationId: string, reason: string): Promise<void> {
  await service.from('integration_events').insert({ kind: 'chatwoot.handoff_not_opened', level: 'warning', data: { conversation_id: conversationId, reason } });
}

async function openForAgents(env: FunctionEnv, conversationId: string): Promise<HandoffChatwoot> {
  const service = serviceClient(env);
  let settings;
  try {
    settings = await loadChatwootSettings(service, env);
  } catch (err) {
    if (err instanceof HttpError && err.status === 503) return 'not_configured';
    throw err;
  }
  const row = await service
    .from('conversations')
    .select('chatwoot_conversation_id, specialist:specialists(chatwoot_inbox_id)')
    .eq('id', conversationId)
    .maybeSingle<{ chatwoot_conversation_id: number | null; specialist: { chatwoot_inbox_id: number | null } | null }>();
  if (row.error || !row.data) throw new HttpError(500, 'Could not read the conversation');
  if (row.data.chatwoot_conversation_id) return 'linked';
  if (!row.data.specialist?.chatwoot_inbox_id) {
    await recordFailure(service, conversationId, 'The specialist has no Chatwoot inbox');
    return 'no_inbox';
  }
  try {
    await ensureLinked(service, settings, conversationId);
    return 'linked';
  } catch (err) {
    await recordFailure(service, conversationId, err instanceof Error ? err.message : String(err));
    return 'failed';
  }
}

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req, env);
    const body = await readJsonObject(req);
    const conversationId = uuid(body, 'conversation_id');
    const res = await caller.db.rpc('request_human', { p_conversation_id: conversationId });
    if (res.error) throw rpcError(res.error);
    const conversation = res.data as { owner_state?: string } | null;
    const chatwoot: HandoffChatwoot = conversation?.owner_state === 'waiting' ? await openForAgents(env, conversationId) : 'unchanged';
    return json({ conversation, chatwoot });
  })(req);

export default handler;

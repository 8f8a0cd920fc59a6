// admin-chatwoot-send: sends a message into Chatwoot.
// - From the chat (user-area.md section 7): {conversation_id: <our uuid>, content, client_correlation_id,
//   account_id?, inbox_id?}. Allowed for members of the conversation's account and for super admins.
//   The message is stored in our database first (idempotent per correlation id), then posted to
//   Chatwoot as the account's contact with source_id/echo_id = the correlation id, so the webhook and
//   the socket echo match it instead of duplicating it. A retry of a message Chatwoot already has is
//   answered from the database without posting again.
// - From /admin/chatwoot (super admins): {account_id, inbox_id, content}: finds or opens the account's
//   conversation with the specialist of that inbox, links it, and sends the same way.
// Reply: {success, messageData, hasChatwoot: true, chatwoot_conversation_id}.
import { isSuperAdmin, requireUser } from '../_shared/caller.ts';
import type { Db } from '../_shared/clients.ts';
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction } from '../_shared/chatwoot/admin-handler.ts';
import { ensureLinked } from '../_shared/chatwoot/link.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { HttpError } from '../_shared/http.ts';
import { requiredString, uuid } from '../_shared/validate.ts';

interface MessageRow {
  id: string;
  conversation_id: string;
  chatwoot_message_id: number | null;
  client_correlation_id: string;
}

async function storeMessage(service: Db, conversationId: string, text: string, correlation: string, senderId: string): Promise<MessageRow> {
  const conv = await service.from('conversations').select('status').eq('id', conversationId).single<{ status: string }>();
  if (conv.error) throw new HttpError(404, 'Conversation not found');
  const existing = () =>
    service.from('messages').select('*').eq('conversation_id', conversationId).eq('client_correlation_id', correlation).maybeSingle<MessageRow>();
  const found = await existing();
  if (found.data) return found.data;
  if (conv.data.status !== 'active') throw new HttpError(409, 'Konverzácia je ukončená');
  const ins = await service
    .from('messages')
    .insert({
      conversation_id: conversationId,
      text,
      type: 'text',
      direction: 'user',
      source: 'app',
      client_correlation_id: correlation,
      sender_user_id: senderId,
      payload: { client_correlation_id: correlation },
    })
    .select('*')
    .single<MessageRow>();
  if (ins.data) return ins.data;
  if (ins.error.code === '23505') {
    const again = await existing();
    if (again.data) return again.data;
  }
  throw rpcError(ins.error);
}

export default adminChatwootFunction(
  async ({ caller, service, settings, body }) => {
    const content = requiredString(body, 'content', 10_000).trim();
    const correlation = body.client_correlation_id === undefined ? crypto.randomUUID() : uuid(body, 'client_correlation_id');
    let conversationId: string;
    if (typeof body.conversation_id === 'string' && body.conversation_id !== '') {
      conversationId = uuid(body, 'conversation_id');
    } else {
      const accountId = uuid(body, 'account_id');
      const inboxId = Number(body.inbox_id);
      if (!Number.isInteger(inboxId) || inboxId <= 0) throw new HttpError(400, 'inbox_id must be a Chatwoot inbox id');
      const sp = await service.from('specialists').select('id').eq('chatwoot_inbox_id', inboxId).limit(1).maybeSingle<{ id: string }>();
      if (!sp.data) throw new HttpError(400, 'Žiadny špecialista nemá tento Chatwoot Inbox ID');
      const opened = await service.rpc('admin_open_conversation', { p_account_id: accountId, p_specialist_id: sp.data.id });
      if (opened.error) throw rpcError(opened.error);
      conversationId = (opened.data as { conversation_id: string }).conversation_id;
    }
    const s = await settings();
    const linked = await ensureLinked(service, s, conversationId);
    // Authorisation is settled above (member of this conversation's account, or super admin), so the
    // row is written with the service role; idempotent per (conversation, correlation id).
    let row = await storeMessage(service, conversationId, content, correlation, caller.user.id);
    if (row.chatwoot_message_id === null) {
      const cw = await chatwootApi<{ id: number }>(s, 'POST', `/conversations/${linked.chatwoot_conversation_id}/messages`, {
        content,
        message_type: 'incoming',
        private: false,
        source_id: correlation,
        echo_id: correlation,
      });
      const upd = await service
        .from('messages')
        .update({ chatwoot_message_id: cw.id })
        .eq('id', row.id)
        .is('chatwoot_message_id', null)
        .select('*')
        .maybeSingle<MessageRow>();
      if (upd.data) row = upd.data;
    }
    return { messageData: row, hasChatwoot: true, chatwoot_conversation_id: linked.chatwoot_conversation_id };
  },
  async (req, env, body) => {
    const caller = await requireUser(req, env);
    if (await isSuperAdmin(env, caller.user.id)) return caller;
    // Members may send only into a conversation their own account holds (RLS decides what they see).
    if (typeof body.conversation_id !== 'string') throw new HttpError(403, 'Super admin role required');
    const own = await caller.db.from('conversations').select('id').eq('id', uuid(body, 'conversation_id')).maybeSingle();
    if (!own.data) throw new HttpError(403, 'Conversation not found');
    return caller;
  },
);

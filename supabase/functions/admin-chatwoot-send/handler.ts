// admin-chatwoot-send: sends a message into Chatwoot.
// - From the chat (user-area.md section 7): {conversation_id: <our uuid>, content, client_correlation_id,
//   account_id?, inbox_id?}. Allowed for members of the conversation's account and for super admins.
//   The message is stored in our database first (idempotent per correlation id), then posted to
//   Chatwoot as the account's contact with source_id/echo_id = the correlation id, so the webhook and
//   the socket echo match it instead of duplicating it. A retry of a message Chatwoot already has is
//   answered from the database without posting again. Only the attempt that stored the row posts at
//   once; a retry or a concurrent duplicate that finds the row without Chatwoot's id waits while the
//   first attempt may still be posting, then looks for the correlation id in Chatwoot, and posts only
//   if it is not there. A new message into a completed conversation is refused (409) before anything
//   is created in Chatwoot.
// - From /admin/chatwoot (super admins): {account_id, inbox_id, content}: finds or opens the account's
//   conversation with the specialist of that inbox, links it, and sends the same way.
// - The admin checks (super admins): {diagnostics: true, content}: posts into the conversation made for
//   checking (_shared/chatwoot/diagnostics.ts), never a user's; nothing is stored in our database.
//   Reply {success, diagnostics: true, hasChatwoot: true, chatwoot_conversation_id, chatwoot_message_id}.
// - With files (issue 38): the chat's {…, payload: {attachments}} — the same entries as send_message's
//   (R12.6). The row is stored as the caller, whose storage rights the attachment check uses, and the
//   files go to Chatwoot in the same create call as multipart attachments[] (_shared/chatwoot/attachments.ts).
//   The caption may then be empty.
// Reply: {success, messageData, hasChatwoot: true, chatwoot_conversation_id}.
import { isSuperAdmin, requireUser } from '../_shared/caller.ts';
import type { Db } from '../_shared/clients.ts';
import { CHATWOOT_TIMEOUT_MS, ChatwootError, chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction } from '../_shared/chatwoot/admin-handler.ts';
import { ensureDiagnosticsConversation } from '../_shared/chatwoot/diagnostics.ts';
import { ensureLinked, relink, type LinkedConversation } from '../_shared/chatwoot/link.ts';
import { attachmentForm, attachmentsOf, storeAsCaller, type MessageRow, type StoredRow } from '../_shared/chatwoot/attachments.ts';
import type { ChatwootSettings } from '../_shared/chatwoot/settings.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { HttpError } from '../_shared/http.ts';
import { optionalString, requiredString, uuid } from '../_shared/validate.ts';

const findMessage = (service: Db, conversationId: string, correlation: string) =>
  service.from('messages').select('*').eq('conversation_id', conversationId).eq('client_correlation_id', correlation).maybeSingle<MessageRow>();

/** The message of this correlation id: stored now (inserted: true), or the row another attempt of
 *  the same send stored first (a retry, or a concurrent duplicate). */
async function storeMessage(
  service: Db,
  conversationId: string,
  text: string,
  correlation: string,
  senderId: string,
): Promise<{ row: MessageRow; inserted: boolean }> {
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
  if (ins.data) return { row: ins.data, inserted: true };
  if (ins.error.code === '23505') {
    const again = await findMessage(service, conversationId, correlation);
    if (again.data) return { row: again.data, inserted: false };
  }
  throw rpcError(ins.error);
}

/** Chatwoot's id for a row another attempt stored, or null when that attempt never reached
 *  Chatwoot. The attempt that stored the row posts it: while it may still be doing so (one Chatwoot
 *  call after the row was written) wait for the id it records; after that, or when its reply was lost
 *  and no webhook echo came back, look for the correlation id among the conversation's latest
 *  Chatwoot messages. */
async function sentEarlier(service: Db, s: ChatwootSettings, row: MessageRow, chatwootConversationId: number): Promise<number | null> {
  const inFlightUntil = Date.parse(row.created_at) + CHATWOOT_TIMEOUT_MS + 2000;
  for (;;) {
    const now = (await findMessage(service, row.conversation_id, row.client_correlation_id)).data;
    if (now?.chatwoot_message_id) return now.chatwoot_message_id;
    if (Date.now() >= inFlightUntil) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    const page = await chatwootApi<{ payload?: { id: number; source_id?: string | null }[] }>(s, 'GET', `/conversations/${chatwootConversationId}/messages`);
    return page.payload?.find((m) => m.source_id === row.client_correlation_id)?.id ?? null;
  } catch (err) {
    if (err instanceof ChatwootError && err.status === 404) return null; // a stale link: the post relinks
    throw err;
  }
}

export default adminChatwootFunction(
  async ({ caller, service, settings, body }) => {
    const files = typeof body.conversation_id === 'string' ? attachmentsOf(body) : null;
    const content = files ? (optionalString(body, 'content', 10_000) ?? '').trim() : requiredString(body, 'content', 10_000).trim();
    const correlation = body.client_correlation_id === undefined ? crypto.randomUUID() : uuid(body, 'client_correlation_id');
    if (body.diagnostics === true) {
      const s = await settings();
      const diag = await ensureDiagnosticsConversation(service, s);
      const posted = await chatwootApi<{ id: number }>(s, 'POST', `/conversations/${diag.conversation_id}/messages`, {
        content,
        message_type: 'incoming',
        private: false,
        source_id: correlation,
        echo_id: correlation,
      });
      return { diagnostics: true, hasChatwoot: true, chatwoot_conversation_id: diag.conversation_id, chatwoot_message_id: posted.id };
    }
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
    // A retry is answered from the stored row; a new message needs an active conversation, checked
    // before anything is created in Chatwoot.
    const conv = await service.from('conversations').select('status').eq('id', conversationId).maybeSingle<{ status: string }>();
    if (!conv.data) throw new HttpError(404, 'Conversation not found');
    const earlier = (await findMessage(service, conversationId, correlation)).data;
    if (!earlier && conv.data.status !== 'active') throw new HttpError(409, 'Konverzácia je ukončená');
    let linked: LinkedConversation = await ensureLinked(service, s, conversationId);
    // Authorisation is settled above (member of this conversation's account, or super admin), so the
    // row is written with the service role; idempotent per (conversation, correlation id).
    const stored = earlier
      ? { row: earlier, inserted: false }
      : files
        ? { row: await storeAsCaller(caller.db, conversationId, content, correlation, files), inserted: true }
        : await storeMessage(service, conversationId, content, correlation, caller.user.id);
    let row = stored.row;
    const sentFiles = (row as Partial<StoredRow>).payload?.attachments ?? [];
    if (row.chatwoot_message_id === null) {
      const found = stored.inserted ? null : await sentEarlier(service, s, row, linked.chatwoot_conversation_id);
      const fields = { content: row.text ?? content, message_type: 'incoming', private: false, source_id: correlation, echo_id: correlation };
      const post = async (to: LinkedConversation) =>
        chatwootApi<{ id: number }>(
          s,
          'POST',
          `/conversations/${to.chatwoot_conversation_id}/messages`,
          sentFiles.length > 0 ? await attachmentForm(service, { ...fields, private: 'false' }, sentFiles) : fields,
        );
      let cwId = found;
      if (cwId === null) {
        try {
          cwId = (await post(linked)).id;
        } catch (err) {
          // 404: Chatwoot no longer has the linked conversation (it was reset): link anew, post once more.
          if (!(err instanceof ChatwootError && err.status === 404)) throw err;
          linked = await relink(service, s, linked);
          cwId = (await post(linked)).id;
        }
      }
      await service.from('messages').update({ chatwoot_message_id: cwId }).eq('id', row.id).is('chatwoot_message_id', null);
      // Re-read: the webhook echo (source_id = correlation) may have stored Chatwoot's id first.
      row = (await findMessage(service, conversationId, correlation)).data ?? row;
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

// admin-chatwoot-conversations {conversation_id?}: one conversation with its messages, or the list.
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction, chatwootConversationId } from '../_shared/chatwoot/admin-handler.ts';

export default adminChatwootFunction(async ({ settings, body }) => {
  // Validate before reading the settings: a bad body is a 400 whether or not Chatwoot is configured.
  const id = body.conversation_id === undefined || body.conversation_id === null || body.conversation_id === '' ? null : chatwootConversationId(body);
  const s = await settings();
  if (id === null) {
    const list = await chatwootApi<{ data?: { payload?: unknown[]; meta?: unknown } }>(s, 'GET', '/conversations?status=all');
    return { conversations: list.data?.payload ?? [], meta: list.data?.meta ?? null };
  }
  const conversation = await chatwootApi<unknown>(s, 'GET', `/conversations/${id}`);
  const messages = await chatwootApi<{ payload?: unknown[] }>(s, 'GET', `/conversations/${id}/messages`);
  return { conversation, messages: messages.payload ?? [] };
});

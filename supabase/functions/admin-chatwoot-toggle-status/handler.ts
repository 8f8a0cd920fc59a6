// admin-chatwoot-toggle-status {conversation_id, to|status: open|resolved}.
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction, chatwootConversationId } from '../_shared/chatwoot/admin-handler.ts';
import { HttpError } from '../_shared/http.ts';

const STATUSES = ['open', 'resolved', 'pending', 'snoozed'];

export default adminChatwootFunction(async ({ settings, body }) => {
  const id = chatwootConversationId(body);
  const status = body.to ?? body.status;
  if (typeof status !== 'string' || !STATUSES.includes(status)) throw new HttpError(400, `to must be one of ${STATUSES.join(', ')}`);
  const res = await chatwootApi<{ payload?: { current_status?: string } }>(await settings(), 'POST', `/conversations/${id}/toggle_status`, { status });
  return { conversation_id: id, current_status: res.payload?.current_status ?? status };
});

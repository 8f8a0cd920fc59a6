// admin-chatwoot-assign {conversation_id, assignee_id|null}: null (or absent) unassigns.
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction, chatwootConversationId } from '../_shared/chatwoot/admin-handler.ts';
import { HttpError } from '../_shared/http.ts';

export default adminChatwootFunction(async ({ settings, body }) => {
  const id = chatwootConversationId(body);
  const raw = body.assignee_id;
  const assignee = raw === undefined || raw === null || raw === '' ? null : Number(raw);
  if (assignee !== null && (!Number.isInteger(assignee) || assignee <= 0))
    throw new HttpError(400, 'assignee_id must be a positive integer or null');
  const agent = await chatwootApi<unknown>(await settings(), 'POST', `/conversations/${id}/assignments`, { assignee_id: assignee });
  return { conversation_id: id, assignee: agent ?? null };
});

// admin-chatwoot-set-custom-attributes {conversation_id, attributes}: replaces the whole hash, as
// Chatwoot does.
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction, chatwootConversationId } from '../_shared/chatwoot/admin-handler.ts';
import { HttpError } from '../_shared/http.ts';

export default adminChatwootFunction(async ({ settings, body }) => {
  const id = chatwootConversationId(body);
  const attrs = body.attributes ?? body.custom_attributes;
  if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs)) throw new HttpError(400, 'attributes must be an object');
  const res = await chatwootApi<{ custom_attributes?: unknown }>(await settings(), 'POST', `/conversations/${id}/custom_attributes`, {
    custom_attributes: attrs,
  });
  return { conversation_id: id, custom_attributes: res.custom_attributes ?? attrs };
});

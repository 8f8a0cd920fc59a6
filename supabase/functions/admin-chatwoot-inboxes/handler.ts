// admin-chatwoot-inboxes {} -> {success, inboxes[]} (the API check of /admin/chatwoot counts them).
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction } from '../_shared/chatwoot/admin-handler.ts';

interface Inbox {
  id: number;
  name: string;
  channel_type: string;
  inbox_identifier?: string;
}

export default adminChatwootFunction(async ({ settings }) => {
  const res = await chatwootApi<{ payload?: Inbox[] }>(await settings(), 'GET', '/inboxes');
  const inboxes = (res.payload ?? []).map(({ id, name, channel_type, inbox_identifier }) => ({ id, name, channel_type, inbox_identifier }));
  return { inboxes };
});

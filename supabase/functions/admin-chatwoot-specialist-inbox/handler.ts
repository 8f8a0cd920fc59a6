// admin-chatwoot-specialist-inbox {specialist_id, inbox_id: number | null} -> {success, specialist}:
// the specialists section of /admin/chatwoot (issue 21 admin item 6: nothing set chatwoot_inbox_id, so
// Send failed on a fresh install). Checked on the server, not only in the page's select:
// - the inbox must exist in the configured Chatwoot account and be an API inbox ('Channel::Api'): the
//   product posts the user's message as `incoming`, which Chatwoot allows only there (422 otherwise);
// - one inbox per specialist: the admin send form and webhooks find the specialist by its inbox;
// - null clears the link (no Chatwoot call needed).
import { chatwootApi } from '../_shared/chatwoot/api.ts';
import { adminChatwootFunction } from '../_shared/chatwoot/admin-handler.ts';
import { HttpError } from '../_shared/http.ts';
import { uuid } from '../_shared/validate.ts';

interface Inbox {
  id: number;
  name: string;
  channel_type: string;
}

export const API_CHANNEL = 'Channel::Api';

export default adminChatwootFunction(async ({ service, settings, body }) => {
  const specialistId = uuid(body, 'specialist_id');
  const raw = body.inbox_id;
  const inboxId = raw === null ? null : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (inboxId !== null && (typeof inboxId !== 'number' || !Number.isSafeInteger(inboxId) || inboxId <= 0))
    throw new HttpError(400, 'inbox_id must be a Chatwoot inbox id (a positive integer) or null');

  const sp = await service.from('specialists').select('id, name').eq('id', specialistId).maybeSingle<{ id: string; name: string }>();
  if (sp.error) throw new HttpError(500, 'Could not read the specialist');
  if (!sp.data) throw new HttpError(404, 'Špecialista neexistuje');

  if (inboxId !== null) {
    const inboxes = await chatwootApi<{ payload?: Inbox[] }>(await settings(), 'GET', '/inboxes');
    const inbox = inboxes.payload?.find((i) => i.id === inboxId);
    if (!inbox) throw new HttpError(400, `Inbox ${inboxId} v Chatwoote neexistuje`);
    if (inbox.channel_type !== API_CHANNEL)
      throw new HttpError(400, `Inbox ${inbox.name} nie je API inbox (${inbox.channel_type}); Poradňa potrebuje inbox typu API`);
    const taken = await service
      .from('specialists')
      .select('name')
      .eq('chatwoot_inbox_id', inboxId)
      .neq('id', specialistId)
      .limit(1)
      .maybeSingle<{ name: string }>();
    if (taken.data) throw new HttpError(409, `Inbox ${inbox.name} už používa špecialista ${taken.data.name}`);
  }
  const upd = await service
    .from('specialists')
    .update({ chatwoot_inbox_id: inboxId })
    .eq('id', specialistId)
    .select('id, name, role, chatwoot_inbox_id')
    .single();
  if (upd.error) throw new HttpError(500, 'Could not save the inbox');
  return { specialist: upd.data };
});

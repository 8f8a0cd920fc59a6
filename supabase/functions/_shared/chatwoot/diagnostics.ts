// The Chatwoot conversation the admin checks work on (issue 21 admin item 3): a contact and
// conversation made for checking, never a user's. Created on first use in an API inbox (preferring
// one a specialist uses), marked with the custom attribute poradna_diagnostics = true and a contact
// name that says so, remembered in public.chatwoot_diagnostics per Chatwoot (base URL + account) and
// reused; made again when Chatwoot no longer has it (404, e.g. Chatwoot was reset).
import type { Db } from '../clients.ts';
import { HttpError } from '../http.ts';
import { ChatwootError, chatwootApi } from './api.ts';
import { publicApi } from './link.ts';
import type { ChatwootSettings } from './settings.ts';

export const DIAGNOSTICS_ATTRIBUTES = { poradna_diagnostics: true } as const;
export const DIAGNOSTICS_CONTACT = { identifier: 'poradna-diagnostics', name: 'Poradňa – diagnostika (nie je používateľ)' } as const;

export interface DiagnosticsConversation {
  conversation_id: number;
  inbox_id: number;
  created: boolean;
}

interface Row {
  inbox_id: number;
  conversation_id: number;
}

interface Inbox {
  id: number;
  channel_type?: string;
  inbox_identifier?: string;
}

async function stillThere(s: ChatwootSettings, conversationId: number): Promise<boolean> {
  try {
    await chatwootApi(s, 'GET', `/conversations/${conversationId}`);
    return true;
  } catch (err) {
    if (err instanceof ChatwootError && err.status === 404) return false;
    throw err;
  }
}

async function pickInbox(service: Db, s: ChatwootSettings): Promise<Inbox & { inbox_identifier: string }> {
  const res = await chatwootApi<{ payload?: Inbox[] }>(s, 'GET', '/inboxes');
  const usable = (res.payload ?? []).filter((i): i is Inbox & { inbox_identifier: string } => typeof i.inbox_identifier === 'string' && i.inbox_identifier !== '');
  const used = await service.from('specialists').select('chatwoot_inbox_id').not('chatwoot_inbox_id', 'is', null);
  const ids = new Set((used.data ?? []).map((r: { chatwoot_inbox_id: number }) => Number(r.chatwoot_inbox_id)));
  const inbox = usable.find((i) => ids.has(i.id)) ?? usable[0];
  if (!inbox) throw new HttpError(409, 'Chatwoot nemá žiadny API inbox, v ktorom by sa dala založiť diagnostická konverzácia');
  return inbox;
}

export async function ensureDiagnosticsConversation(service: Db, s: ChatwootSettings): Promise<DiagnosticsConversation> {
  const key = { api_base_url: s.baseUrl, chatwoot_account_id: s.accountId };
  const stored = await service
    .from('chatwoot_diagnostics')
    .select('inbox_id, conversation_id')
    .eq('api_base_url', key.api_base_url)
    .eq('chatwoot_account_id', key.chatwoot_account_id)
    .maybeSingle<Row>();
  if (stored.error) throw new HttpError(500, 'Could not read chatwoot_diagnostics');
  if (stored.data && (await stillThere(s, Number(stored.data.conversation_id)))) {
    return { conversation_id: Number(stored.data.conversation_id), inbox_id: Number(stored.data.inbox_id), created: false };
  }
  const inbox = await pickInbox(service, s);
  const contact = await publicApi<{ source_id: string }>(s, `/inboxes/${inbox.inbox_identifier}/contacts`, DIAGNOSTICS_CONTACT);
  const conv = await publicApi<{ id: number }>(s, `/inboxes/${inbox.inbox_identifier}/contacts/${contact.source_id}/conversations`, {
    custom_attributes: DIAGNOSTICS_ATTRIBUTES,
  });
  const saved = await service
    .from('chatwoot_diagnostics')
    .upsert({ ...key, inbox_id: inbox.id, contact_source_id: contact.source_id, conversation_id: conv.id }, { onConflict: 'api_base_url,chatwoot_account_id' });
  if (saved.error) throw new HttpError(500, 'Could not store the diagnostics conversation');
  return { conversation_id: conv.id, inbox_id: inbox.id, created: true };
}

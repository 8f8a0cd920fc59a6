// Links one of our conversations to a Chatwoot conversation in its specialist's API inbox: the
// account's contact in that inbox is made once through the public client API (which is what hands
// out the contact's pubsub_token) and kept in chatwoot_contacts; the Chatwoot conversation id is
// stored on our conversation. Idempotent: an already linked conversation is returned as it is.
// Stale links (issue 21 admin item 7: Chatwoot was reset, so the stored contact or conversation no
// longer exists and every send got 404): a 404 on the stored contact drops that contact row and makes
// a new one; relink() drops a conversation link Chatwoot answered 404 for, and links anew.
import type { Db } from '../clients.ts';
import { HttpError } from '../http.ts';
import { ChatwootError, chatwootApi, chatwootFetchError } from './api.ts';
import { guardedFetch } from './guarded-fetch.ts';
import type { ChatwootSettings } from './settings.ts';

export interface LinkedConversation {
  id: string;
  account_id: string;
  chatwoot_conversation_id: number;
  inbox_id: number;
}

interface ConversationRow {
  id: string;
  account_id: string;
  chatwoot_conversation_id: number | null;
  specialist: { chatwoot_inbox_id: number | null } | null;
}

export async function publicApi<T>(s: ChatwootSettings, path: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await guardedFetch(
      s.baseUrl,
      `${s.baseUrl}/public/api/v1${path}`,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) },
      { allowPrivate: s.allowPrivate },
    );
  } catch (err) {
    throw chatwootFetchError(err);
  }
  const parsed = (await res.json().catch(() => null)) as T & { error?: string; message?: string };
  if (!res.ok) throw new ChatwootError(res.status, `Chatwoot ${res.status}: ${parsed?.error ?? parsed?.message ?? res.statusText}`);
  return parsed;
}

async function contactFor(db: Db, s: ChatwootSettings, accountId: string, inboxId: number): Promise<{ source_id: string; identifier: string }> {
  const existing = await db
    .from('chatwoot_contacts')
    .select('source_id')
    .eq('account_id', accountId)
    .eq('inbox_id', inboxId)
    .maybeSingle<{ source_id: string }>();
  if (existing.data) return { source_id: existing.data.source_id, identifier: '' };
  const inboxes = await chatwootApi<{ payload?: { id: number; inbox_identifier?: string }[] }>(s, 'GET', '/inboxes');
  const identifier = inboxes.payload?.find((i) => i.id === inboxId)?.inbox_identifier;
  if (!identifier) throw new HttpError(400, 'Chatwoot inbox ID not found for specialist');
  const account = await db.from('accounts').select('name, owner_email').eq('id', accountId).single<{ name: string; owner_email: string | null }>();
  const contact = await publicApi<{ id: number; source_id: string; pubsub_token: string }>(s, `/inboxes/${identifier}/contacts`, {
    identifier: `poradna-account-${accountId}`,
    name: account.data?.name ?? 'Poradňa',
    ...(account.data?.owner_email ? { email: account.data.owner_email } : {}),
  });
  const saved = await db
    .from('chatwoot_contacts')
    .upsert(
      { account_id: accountId, inbox_id: inboxId, contact_id: contact.id, source_id: contact.source_id, pubsub_token: contact.pubsub_token },
      { onConflict: 'account_id,inbox_id', ignoreDuplicates: true },
    );
  if (saved.error) throw new HttpError(500, 'Could not store the Chatwoot contact');
  // A concurrent caller may have stored its contact first (the upsert then kept that one): use the
  // stored contact, whose pubsub_token the account's browsers get, or its socket would never hear
  // the conversation opened here.
  const stored = await db
    .from('chatwoot_contacts')
    .select('source_id')
    .eq('account_id', accountId)
    .eq('inbox_id', inboxId)
    .single<{ source_id: string }>();
  if (stored.error) throw new HttpError(500, 'Could not read the Chatwoot contact');
  return { source_id: stored.data.source_id, identifier };
}

export async function ensureLinked(db: Db, s: ChatwootSettings, conversationId: string, retriedContact = false): Promise<LinkedConversation> {
  const row = await db
    .from('conversations')
    .select('id, account_id, chatwoot_conversation_id, specialist:specialists(chatwoot_inbox_id)')
    .eq('id', conversationId)
    .maybeSingle<ConversationRow>();
  if (row.error) throw new HttpError(500, 'Could not read the conversation');
  if (!row.data) throw new HttpError(404, 'Conversation not found');
  const inboxId = row.data.specialist?.chatwoot_inbox_id;
  if (!inboxId) throw new HttpError(400, 'Chatwoot inbox ID not found for specialist');
  if (row.data.chatwoot_conversation_id) {
    return { id: row.data.id, account_id: row.data.account_id, chatwoot_conversation_id: row.data.chatwoot_conversation_id, inbox_id: inboxId };
  }
  const contact = await contactFor(db, s, row.data.account_id, inboxId);
  let identifier = contact.identifier;
  if (!identifier) {
    const inboxes = await chatwootApi<{ payload?: { id: number; inbox_identifier?: string }[] }>(s, 'GET', '/inboxes');
    identifier = inboxes.payload?.find((i) => i.id === inboxId)?.inbox_identifier ?? '';
  }
  let conv: { id: number };
  try {
    conv = await publicApi<{ id: number }>(s, `/inboxes/${identifier}/contacts/${contact.source_id}/conversations`, {
      custom_attributes: { poradna_conversation_id: conversationId },
    });
  } catch (err) {
    if (!(err instanceof ChatwootError && err.status === 404) || retriedContact) throw err;
    // The stored contact is gone in Chatwoot: forget it (only that exact row) and make a new one.
    await forgetContact(db, row.data.account_id, inboxId, contact.source_id);
    await record(db, 'chatwoot.contact_recreated', { account_id: row.data.account_id, inbox_id: inboxId });
    return ensureLinked(db, s, conversationId, true);
  }
  // Only link if still unlinked: a concurrent call may have won; then use its link.
  const upd = await db
    .from('conversations')
    .update({ chatwoot_conversation_id: conv.id })
    .eq('id', conversationId)
    .is('chatwoot_conversation_id', null)
    .select('chatwoot_conversation_id')
    .maybeSingle<{ chatwoot_conversation_id: number }>();
  if (upd.error) throw new HttpError(500, 'Could not link the conversation to Chatwoot');
  if (!upd.data) return ensureLinked(db, s, conversationId, retriedContact);
  return { id: conversationId, account_id: row.data.account_id, chatwoot_conversation_id: conv.id, inbox_id: inboxId };
}

async function record(db: Db, kind: string, data: Record<string, unknown>): Promise<void> {
  await db.from('integration_events').insert({ kind, level: 'warning', data });
}

async function forgetContact(db: Db, accountId: string, inboxId: number, sourceId: string): Promise<void> {
  await db.from('chatwoot_contacts').delete().eq('account_id', accountId).eq('inbox_id', inboxId).eq('source_id', sourceId);
}

/**
 * Chatwoot answered 404 for the linked conversation: drop exactly that link (a concurrent relink that
 * already replaced it is kept) and link anew, which also remakes a contact Chatwoot no longer has.
 */
export async function relink(db: Db, s: ChatwootSettings, stale: LinkedConversation): Promise<LinkedConversation> {
  await db.from('conversations').update({ chatwoot_conversation_id: null }).eq('id', stale.id).eq('chatwoot_conversation_id', stale.chatwoot_conversation_id);
  await record(db, 'chatwoot.relinked', { conversation_id: stale.id, stale_chatwoot_conversation_id: stale.chatwoot_conversation_id });
  return ensureLinked(db, s, stale.id);
}

// The baseline's reads: every screen open asks PostgREST again (RLS scopes rows to the account).
// Deliberately generous to the baseline: one request for the list (specialist and newest message
// embedded) instead of the spec's per-conversation message and unread queries.
import { loadSupabase } from '../../auth/lazy-supabase.ts';

// The client through the app's one lazy import (already loading for auth by the time a screen
// fetches), so this module adds nothing to the default build's list chunk.
const client = async () => (await loadSupabase()).supabase;
import type { LocalConversation, LocalMessage } from '../../../sync/model/local-types.ts';
import { localConversation, localMessage } from './rows.ts';

const MESSAGE_COLUMNS = 'id, conversation_id, account_id, text, type, direction, source, chatwoot_message_id, created_at, read_at, payload, client_correlation_id, sender_user_id, change_seq';
const SPECIALIST = 'specialist:specialists(id, name, role, avatar_url, seniority, is_ai)';
/** PostgREST pages; the chat loads every page so it shows what the local-first build shows. */
const PAGE = 1000;

export async function fetchConversations(): Promise<LocalConversation[]> {
  const { data, error } = await (await client())
    .from('conversations')
    .select(`*, ${SPECIALIST}, messages(${MESSAGE_COLUMNS})`)
    .order('last_message_at', { ascending: false, nullsFirst: false })
    .order('created_at', { referencedTable: 'messages', ascending: false })
    .limit(1, { referencedTable: 'messages' });
  if (error) throw new Error(error.message);
  return (data as { messages?: unknown[] }[]).map((row) => localConversation(row, row.messages?.[0]));
}

export async function fetchConversation(id: string): Promise<LocalConversation | null> {
  const res = await (await client()).from('conversations').select(`*, ${SPECIALIST}`).eq('id', id).maybeSingle<unknown>();
  if (res.error) throw new Error(res.error.message);
  return res.data === null ? null : localConversation(res.data, null);
}

export async function fetchMessages(conversationId: string): Promise<LocalMessage[]> {
  const out: LocalMessage[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await (await client())
      .from('messages')
      .select(MESSAGE_COLUMNS)
      .eq('conversation_id', conversationId)
      .order('created_at', { ascending: true })
      .order('id', { ascending: true })
      .range(from, from + PAGE - 1);
    if (error) throw new Error(error.message);
    for (const row of data as unknown[]) out.push(localMessage(row));
    if (data.length < PAGE) return out;
  }
}

export async function sendOnline(conversationId: string, text: string, correlationId: string): Promise<LocalMessage> {
  const res = await (await client()).rpc('send_message', { p_conversation_id: conversationId, p_text: text, p_client_correlation_id: correlationId });
  if (res.error) throw new Error(res.error.message);
  const data: unknown = res.data;
  return localMessage(Array.isArray(data) ? data[0] : data);
}

// The integration page's reads and calls (admin-area.md section 7). Reads go straight to the tables
// (super-admin RLS); Chatwoot actions go through the admin-chatwoot-* functions.
import { supabase } from '../../supabase.ts';
import { dataOf } from '../lib/errors.ts';
import { invokeFunction } from '../lib/functions.ts';

export interface ChatwootConfig {
  id: string;
  api_base_url: string;
  account_id: number | string;
}

export interface CwSpecialist {
  id: string;
  name: string;
  role: string | null;
  chatwoot_inbox_id: number | null;
}

export interface IntegrationEvent {
  id: string;
  kind: string;
  level: string;
  data: Record<string, unknown> | null;
  created_at: string;
}

export interface RichMessage {
  id: string;
  text: string | null;
  payload: unknown;
  created_at: string;
  conversation_id: string;
}

export const EVENTS_LIMIT = 50;

export async function loadConfig(): Promise<ChatwootConfig | null> {
  return dataOf<ChatwootConfig | null>(await supabase.from('chatwoot_config').select('id, api_base_url, account_id').limit(1).maybeSingle());
}

/**
 * Saves through admin-chatwoot-config, which checks the URL on the server (https on a public address
 * unless the deployment allows private ones); a refused URL throws a FunctionCallError with status 400
 * and the server's Slovak reason. `_existing` is kept for the callers: the row is a singleton.
 */
export async function saveConfig(_existing: ChatwootConfig | null, apiBaseUrl: string, accountId: number): Promise<void> {
  await invokeFunction('admin-chatwoot-config', { api_base_url: apiBaseUrl, account_id: accountId });
}

export async function loadSpecialists(): Promise<CwSpecialist[]> {
  return dataOf<CwSpecialist[]>(await supabase.from('specialists').select('id, name, role, chatwoot_inbox_id').order('name'));
}

export async function loadEvents(): Promise<IntegrationEvent[]> {
  return dataOf<IntegrationEvent[]>(
    await supabase.from('integration_events').select('id, kind, level, data, created_at').order('created_at', { ascending: false }).limit(EVENTS_LIMIT),
  );
}

/**
 * Rich messages of every account (admin_rich_messages, 20261124000200): messages RLS confines even a
 * super admin to the account acted for, so a plain select saw only the admin's own account.
 * An empty conversation id reads the newest across all conversations.
 */
export async function loadRichMessages(conversationId: string, limit = EVENTS_LIMIT): Promise<RichMessage[]> {
  return dataOf<RichMessage[]>(
    await supabase.rpc('admin_rich_messages', { p_conversation_id: conversationId === '' ? null : conversationId, p_limit: limit }),
  );
}

/** The user's own account id; one is created (plan FREE, '{local part} Account', owner) if missing. */
export async function ensureOwnAccount(userId: string): Promise<string> {
  const link = dataOf<{ account_id: string } | null>(await supabase.from('account_users').select('account_id').eq('user_id', userId).maybeSingle());
  if (link) return link.account_id;
  return dataOf<string>(await supabase.rpc('ensure_account'));
}

export async function sendMessage(accountId: string, inboxId: number, content: string): Promise<void> {
  const data = await invokeFunction<{ success?: unknown; error?: unknown } | null>('admin-chatwoot-send', { account_id: accountId, inbox_id: inboxId, content });
  if (data && data.success === false) throw new Error(typeof data.error === 'string' ? data.error : '');
}

export async function assignConversation(conversationId: string, assigneeId: string | null): Promise<void> {
  await invokeFunction('admin-chatwoot-assign', { conversation_id: conversationId, assignee_id: assigneeId });
}

export async function toggleStatus(conversationId: string, to: 'open' | 'resolved'): Promise<void> {
  await invokeFunction('admin-chatwoot-toggle-status', { conversation_id: conversationId, to });
}

export interface CwInbox {
  id: number;
  name: string;
  channel_type: string;
}

export async function loadInboxes(): Promise<CwInbox[]> {
  const data = await invokeFunction<{ inboxes?: CwInbox[] }>('admin-chatwoot-inboxes');
  return data.inboxes ?? [];
}

/** Links a specialist to an inbox (null unlinks); the server checks the inbox (admin-chatwoot-specialist-inbox). */
export async function setSpecialistInbox(specialistId: string, inboxId: number | null): Promise<void> {
  await invokeFunction('admin-chatwoot-specialist-inbox', { specialist_id: specialistId, inbox_id: inboxId });
}

// Account facts read straight from the backend until the sync engine exposes them locally. Every
// function here answers from the server; callers cache what they need for offline starts.
import type { SupabaseClient } from '@supabase/supabase-js';
import { loadSupabase } from '../auth/lazy-supabase.ts';

/** supabase-js loads as its own chunk (auth/lazy-supabase.ts), not with the signed-in area. */
const client = async () => (await loadSupabase()).supabase;

export interface Account {
  id: string;
  name: string;
  plan: string;
  specialists_mode: 'DEFAULT' | 'CUSTOM';
}

export async function fetchAccountIdForUser(userId: string): Promise<string | null> {
  const { data, error } = await (await client()).from('account_users').select('account_id').eq('user_id', userId).maybeSingle<{ account_id: string }>();
  if (error) throw new Error(error.message);
  return data?.account_id ?? null;
}

/**
 * The user's account in one request: its account_users row with the account embedded through the
 * row's foreign key (PostgREST resource embedding; RLS applies to both tables, as to two requests).
 * Null when the user has no account. It was two requests in a row (the id, then the account): one
 * round trip more before the signed-in area could start (issue 35, row 5's "before the pull").
 */
export async function readAccountForUser(supabase: SupabaseClient, userId: string): Promise<Account | null> {
  const { data, error } = await supabase
    .from('account_users')
    .select('accounts(id, name, plan, specialists_mode)')
    .eq('user_id', userId)
    .maybeSingle<{ accounts: Account | null }>();
  if (error) throw new Error(error.message);
  return data?.accounts ?? null;
}

export async function fetchAccountForUser(userId: string): Promise<Account | null> {
  return readAccountForUser(await client(), userId);
}

/** The super-admin check (app_users role super_admin); errors are the caller's to log. */
export async function fetchIsSuperAdmin(userId: string): Promise<boolean> {
  const { data, error } = await (await client()).from('app_users').select('role').eq('user_id', userId).maybeSingle<{ role: string }>();
  if (error) throw new Error(error.message);
  return data?.role === 'super_admin';
}

export async function accountHasConversations(accountId: string): Promise<boolean> {
  const { data, error } = await (await client()).from('conversations').select('id').eq('account_id', accountId).limit(1);
  if (error) throw new Error(error.message);
  return data.length > 0;
}

/** ensure-first-conversation: no body; answers {conversation_id}. */
export async function ensureFirstConversation(): Promise<string | null> {
  const res = await (await client()).functions.invoke<{ conversation_id?: unknown }>('ensure-first-conversation', { method: 'POST' });
  if (res.error) throw new Error('ensure-first-conversation failed', { cause: res.error as unknown });
  return typeof res.data?.conversation_id === 'string' ? res.data.conversation_id : null;
}

export async function stopImpersonationOnServer(): Promise<void> {
  const { error } = await (await client()).rpc('stop_impersonation');
  if (error) console.warn('stop_impersonation:', error.message);
}

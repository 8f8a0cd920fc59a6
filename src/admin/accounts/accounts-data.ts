// The accounts list's calls (admin-area.md section 7), straight to the server.
import { setImpersonation } from '../../account/impersonation-store.ts';
import { supabase } from '../../supabase.ts';
import { dataOf } from '../lib/errors.ts';
import { invokeFunction } from '../lib/functions.ts';
import type { AdminAccountRow } from './account-list.ts';

export interface AccountsData {
  rows: AdminAccountRow[];
  superAdminEmails: Set<string>;
}

export async function loadAccounts(): Promise<AccountsData> {
  const [rows, emails] = await Promise.all([
    supabase.from('v_admin_accounts').select('*').order('name', { ascending: true }),
    supabase.rpc('get_super_admin_emails'),
  ]);
  return {
    rows: dataOf<AdminAccountRow[]>(rows),
    superAdminEmails: new Set(dataOf<{ email: string }[]>(emails).map((r) => r.email.toLowerCase())),
  };
}

/** The server records the impersonation (start_impersonation), then the app switches accounts. */
export async function impersonate(row: AdminAccountRow): Promise<{ id: string; name: string }> {
  const account = dataOf<{ id: string; name: string }>(await supabase.rpc('start_impersonation', { p_account_id: row.id }));
  const target = { id: account.id, name: account.name };
  setImpersonation(target);
  return target;
}

export async function deleteUser(email: string): Promise<void> {
  const data = await invokeFunction<{ error?: unknown } | null>('delete-user', { userEmail: email });
  if (data && typeof data.error === 'string' && data.error) throw new Error(data.error);
}

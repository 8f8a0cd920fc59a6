// Account settings' calls (admin-area.md section 7). Reads go straight to the tables; every change is
// one atomic server RPC (admin_change_plan, admin_set_specialists_mode, admin_assign_specialist,
// admin_unassign_specialist) that checks the caller is a super admin.
import { supabase } from '../../supabase.ts';
import { dataOf } from '../lib/errors.ts';
import type { Assignment, SpecialistRow, SpecialistsMode } from './specialist-state.ts';

export interface AccountRow {
  id: string;
  name: string;
  owner_email: string | null;
  specialists_mode: SpecialistsMode;
  plan: string | null;
  plan_id: string | null;
  created_at: string;
}

export interface PlanRow {
  id: string;
  code: string;
  name: string;
  /** AI replies the plan allows (issue 36 N5; enforced by the ai_reply_jobs trigger). */
  ai_replies_per_user_hour: number;
  ai_replies_per_account_day: number;
}

export interface SettingsData {
  account: AccountRow;
  specialists: SpecialistRow[];
  plans: PlanRow[];
  assignment: Assignment;
}

async function loadAssignment(accountId: string, mode: SpecialistsMode): Promise<Assignment> {
  const [active, explicit] = await Promise.all([
    supabase.rpc('get_active_specialists', { p_account_id: accountId }),
    supabase.from('account_specialists').select('specialist_id').eq('account_id', accountId),
  ]);
  return {
    mode,
    activeIds: dataOf<{ specialist_id: string }[]>(active).map((r) => r.specialist_id),
    explicitIds: dataOf<{ specialist_id: string }[]>(explicit).map((r) => r.specialist_id),
  };
}

/** null when the account does not exist or is not visible to the caller. */
export async function loadSettings(accountId: string): Promise<SettingsData | null> {
  const accountRes = await supabase
    .from('accounts')
    .select('id, name, owner_email, specialists_mode, plan, plan_id, created_at')
    .eq('id', accountId)
    .maybeSingle<AccountRow>();
  const account = dataOf<AccountRow | null>(accountRes);
  if (!account) return null;
  const [specialists, plans, assignment] = await Promise.all([
    supabase.from('specialists').select('id, name, role, avatar_url, seniority, is_ai').order('name'),
    supabase.from('plans').select('id, code, name, ai_replies_per_user_hour, ai_replies_per_account_day').order('code'),
    loadAssignment(accountId, account.specialists_mode),
  ]);
  return { account, specialists: dataOf<SpecialistRow[]>(specialists), plans: dataOf<PlanRow[]>(plans), assignment };
}

async function rpc(name: string, args: Record<string, unknown>): Promise<void> {
  const res = await supabase.rpc(name, args);
  if (res.error) throw new Error(res.error.message);
}

export const changePlan = (accountId: string, code: string) => rpc('admin_change_plan', { p_account_id: accountId, p_plan_code: code });
export const setSpecialistsMode = (accountId: string, mode: SpecialistsMode) =>
  rpc('admin_set_specialists_mode', { p_account_id: accountId, p_mode: mode });
export const assignSpecialist = (accountId: string, specialistId: string) =>
  rpc('admin_assign_specialist', { p_account_id: accountId, p_specialist_id: specialistId });
export const unassignSpecialist = (accountId: string, specialistId: string) =>
  rpc('admin_unassign_specialist', { p_account_id: accountId, p_specialist_id: specialistId });

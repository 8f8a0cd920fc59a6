// test-runner "unit": the schema is there, RLS is on for every table, RPCs answer sensibly on the
// data the database holds (the seed, on a local stack).
import type { Caller } from '../caller.ts';
import type { Db } from '../clients.ts';
import { assert, runChecks, type SuiteResult } from './suite.ts';

export const EXPECTED_TABLES = [
  'accounts', 'account_users', 'app_users', 'plans', 'plan_specialists', 'specialists', 'account_specialists',
  'conversations', 'messages', 'read_cursors', 'chatwoot_config', 'integration_events', 'audit_log',
  'ai_reply_jobs', 'impersonations', 'deleted_rows', 'chatwoot_contacts',
];

interface Report {
  tables: { name: string; rls: boolean; policies: number }[];
  views: string[];
  functions: string[];
}

export async function unitSuite(caller: Caller, service: Db): Promise<SuiteResult> {
  let report: Report | undefined;
  const getReport = async () => {
    if (report) return report;
    const r = await caller.db.rpc('admin_schema_report');
    if (r.error) throw new Error(`admin_schema_report: ${r.error.message}`);
    report = r.data as Report;
    return report;
  };
  return runChecks('Unit: schéma, RLS a RPC', [
    {
      name: 'all tables exist',
      run: async () => {
        const names = new Set((await getReport()).tables.map((t) => t.name));
        const missing = EXPECTED_TABLES.filter((t) => !names.has(t));
        assert(missing.length === 0, `missing tables: ${missing.join(', ')}`);
        return `${names.size} tables`;
      },
    },
    {
      name: 'row-level security is on for every table',
      run: async () => {
        const off = (await getReport()).tables.filter((t) => !t.rls).map((t) => t.name);
        assert(off.length === 0, `RLS off: ${off.join(', ')}`);
      },
    },
    {
      name: 'view v_admin_accounts and the RPCs exist',
      run: async () => {
        const r = await getReport();
        assert(r.views.includes('v_admin_accounts'), 'v_admin_accounts is missing');
        const want = ['get_active_specialists', 'assign_specialists_for_plan', 'get_super_admin_emails', 'sync_pull', 'send_message', 'mark_read', 'start_conversation'];
        const missing = want.filter((f) => !r.functions.includes(f));
        assert(missing.length === 0, `missing functions: ${missing.join(', ')}`);
      },
    },
    {
      name: 'plans FREE, PRO and ENTERPRISE exist',
      run: async () => {
        const r = await caller.db.from('plans').select('code');
        const codes = (r.data ?? []).map((p: { code: string }) => p.code);
        for (const c of ['FREE', 'PRO', 'ENTERPRISE']) assert(codes.includes(c), `plan ${c} missing`);
      },
    },
    {
      name: 'get_super_admin_emails lists the caller',
      run: async () => {
        const r = await caller.db.rpc('get_super_admin_emails');
        assert(!r.error, r.error?.message ?? '');
        const emails = (r.data as { email: string }[]).map((e) => e.email.toLowerCase());
        assert(emails.includes((caller.user.email ?? '').toLowerCase()), 'caller not among super admins');
      },
    },
    {
      name: 'v_admin_accounts shows every account',
      run: async () => {
        const view = await caller.db.from('v_admin_accounts').select('id', { count: 'exact', head: true });
        const all = await service.from('accounts').select('id', { count: 'exact', head: true });
        assert(!view.error && !all.error, view.error?.message ?? all.error?.message ?? '');
        assert(view.count === all.count, `view shows ${view.count}, accounts ${all.count}`);
        return `${view.count} accounts`;
      },
    },
    {
      name: 'get_active_specialists answers for every account',
      run: async () => {
        const accounts = await service.from('accounts').select('id, specialists_mode').limit(20);
        assert(!accounts.error, accounts.error?.message ?? '');
        for (const a of accounts.data as { id: string }[]) {
          const r = await caller.db.rpc('get_active_specialists', { p_account_id: a.id });
          assert(!r.error, `account ${a.id}: ${r.error?.message}`);
        }
        return `${accounts.data.length} accounts checked`;
      },
    },
    {
      name: 'the assistant specialist exists',
      run: async () => {
        const r = await caller.db.from('specialists').select('id').eq('is_assistant', true);
        assert(r.data?.length === 1, 'expected exactly one assistant specialist');
      },
    },
  ]);
}
